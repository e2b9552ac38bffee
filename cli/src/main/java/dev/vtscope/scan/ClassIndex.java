package dev.vtscope.scan;

import dev.vtscope.attribution.DeclaredMethod;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The class path's classes by name, as a class loader would find them (the first entry that has a
 * class wins, a multi-release jar's base entry before its variants), and each type's subtypes.
 */
final class ClassIndex {

  /** A method found by name and descriptor, and the class that declares it. */
  record Resolved(ScannedClass owner, DeclaredMethod method) {}

  private final Map<String, ScannedClass> byName = new HashMap<>();
  private final Map<String, List<String>> subtypes = new HashMap<>();

  ClassIndex(List<ScannedClass> classes) {
    for (ScannedClass c : classes) {
      ScannedClass there = byName.get(c.name());
      if (there == null
          || (there.release() > 0 && c.release() == 0 && there.archive() == c.archive())) {
        byName.put(c.name(), c);
      }
    }
    for (ScannedClass c : byName.values()) {
      if (c.code().superName() != null) {
        subtypes.computeIfAbsent(c.code().superName(), k -> new ArrayList<>()).add(c.name());
      }
      for (String i : c.code().interfaces()) {
        subtypes.computeIfAbsent(i, k -> new ArrayList<>()).add(c.name());
      }
    }
    subtypes.values().forEach(list -> list.sort(null));
  }

  ScannedClass get(String name) {
    return byName.get(name);
  }

  /**
   * The method a call of {@code owner.name descriptor} runs when the receiver is an {@code owner}:
   * declared by it or inherited from a superclass, else a default method of an interface; null when
   * the class path's classes neither declare nor inherit it. {@code outside} receives the
   * supertypes outside the class path the search reached, the superclass first, where the JDK may
   * declare it.
   */
  Resolved resolve(String owner, String name, String descriptor, List<String> outside) {
    List<ScannedClass> interfaces = null; // made for the few calls no class declares
    String type = owner;
    while (type != null) {
      ScannedClass c = byName.get(type);
      if (c == null) {
        outside.add(0, type);
        break;
      }
      DeclaredMethod m = c.code().method(name, descriptor);
      if (m != null) {
        return new Resolved(c, m);
      }
      for (String i : c.code().interfaces()) {
        ScannedClass ic = byName.get(i);
        if (ic != null) {
          if (interfaces == null) {
            interfaces = new ArrayList<>();
          }
          interfaces.add(ic);
        } else {
          outside.add(i);
        }
      }
      type = c.code().superName();
    }
    if (interfaces == null) {
      return null;
    }
    ArrayDeque<ScannedClass> pending = new ArrayDeque<>(interfaces);
    Set<String> seen = new HashSet<>();
    while (!pending.isEmpty()) {
      ScannedClass i = pending.poll();
      if (!seen.add(i.name())) {
        continue;
      }
      DeclaredMethod m = i.code().method(name, descriptor);
      if (m != null && !m.isAbstract()) {
        return new Resolved(i, m);
      }
      for (String s : i.code().interfaces()) {
        ScannedClass sc = byName.get(s);
        if (sc != null) {
          pending.add(sc);
        } else {
          outside.add(s);
        }
      }
    }
    return null;
  }

  /** Every class of the class path below {@code type}, nearest first, at most {@code limit}. */
  List<ScannedClass> subtypesOf(String type, int limit) {
    List<ScannedClass> found = new ArrayList<>();
    ArrayDeque<String> pending = new ArrayDeque<>(subtypes.getOrDefault(type, List.of()));
    Set<String> seen = new HashSet<>();
    while (!pending.isEmpty() && found.size() < limit) {
      String s = pending.poll();
      if (!seen.add(s)) {
        continue;
      }
      ScannedClass c = byName.get(s);
      if (c != null) {
        found.add(c);
        pending.addAll(subtypes.getOrDefault(s, List.of()));
      }
    }
    return found;
  }
}
