package dev.vtscope.scan;

import dev.vtscope.attribution.BlockingKind;
import java.util.List;

/**
 * The calls of one method of the class path, every overload of it in every class file of its class,
 * with the monitors held at each call: what {@code vtscope scan --calls-of a.b.C.m} shows, to say
 * whether a release still holds a monitor around a call or no longer does. The check of
 * knowledge.json's library entries, {@code tools/verify-library-fixes.sh}, reads it.
 *
 * @param className the class asked for, binary name with dots
 * @param method the method's name
 * @param classFiles each class file of that name the class path has (a jar's, a multi-release jar's
 *     variants, other jars'), in class path order; empty when none has the class
 */
public record CallListing(String className, String method, List<ClassFile> classFiles) {

  public CallListing {
    classFiles = List.copyOf(classFiles);
  }

  /** {@code a.b.C.m}. */
  public String qualifiedMethod() {
    return className + "." + method;
  }

  /**
   * One class file of the class.
   *
   * @param location the jar or folder it was read from
   * @param release for a multi-release jar's {@code META-INF/versions/N} variant, N; else 0
   * @param overloads the methods of that name it declares; empty when it declares none
   */
  public record ClassFile(String location, int release, List<Overload> overloads) {

    public ClassFile {
      overloads = List.copyOf(overloads);
    }
  }

  /**
   * One method of that name.
   *
   * @param descriptor its descriptor
   * @param synchronizedMethod whether it is {@code synchronized}: every call it makes holds its
   *     monitor
   * @param monitorEnter whether any of its calls is made inside a {@code synchronized} block
   * @param calls the calls its code makes, in bytecode order (calls of JDK methods only when the
   *     table of blocking JDK methods lists them, as the scan keeps them)
   */
  public record Overload(
      String descriptor, boolean synchronizedMethod, boolean monitorEnter, List<Call> calls) {

    public Overload {
      calls = List.copyOf(calls);
    }
  }

  /**
   * One call.
   *
   * @param owner the class the instruction names, binary name with dots
   * @param name the method called
   * @param descriptor its descriptor
   * @param line its source line, or -1
   * @param monitors the {@code synchronized} blocks of the method's own code held there (a
   *     synchronized method's monitor not counted)
   * @param blocking how the riskiest chain the scan follows from this call blocks, within the
   *     scan's depth, or null when it finds none
   */
  public record Call(
      String owner, String name, String descriptor, int line, int monitors, BlockingKind blocking) {

    /** {@code a.b.C.m}. */
    public String qualifiedMethod() {
      return owner + "." + name;
    }
  }
}
