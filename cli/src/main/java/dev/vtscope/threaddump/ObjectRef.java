package dev.vtscope.threaddump;

/**
 * An object a dump names: a lock, a park blocker.
 *
 * @param className its class
 * @param id how the dump names it: {@code java.lang.Object@3a2f26d7} (JSON, plain text: the
 *     identity hash, the same in every dump of one JVM) or {@code 0x00000000f0017018} ({@code
 *     Thread.print}: an address, which the garbage collector may change); null when the dump names
 *     no object ({@code <no object reference available>})
 * @param kind which of the two {@code id} is: ids of different kinds cannot be joined
 */
public record ObjectRef(String className, String id, IdKind kind) {

  /** How a dump names objects. */
  public enum IdKind {
    /** {@code Objects.toIdentityString}: the JSON and plain text dumps. */
    IDENTITY,
    /** A heap address: {@code Thread.print}. */
    ADDRESS
  }

  /** An object as the JSON and plain-text dumps name it: {@code class@hash}. */
  public static ObjectRef identity(String text) {
    int at = text.lastIndexOf('@');
    return new ObjectRef(at < 0 ? text : text.substring(0, at), text, IdKind.IDENTITY);
  }
}
