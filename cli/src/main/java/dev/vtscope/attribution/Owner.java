package dev.vtscope.attribution;

/** Whose code a frame is. */
public enum Owner {
  JDK,
  LIBRARY,
  APPLICATION
}
