package dev.vtscope.scan;

/**
 * Why a finding is listed after the ranked ones, at severity info: its method runs where no virtual
 * thread runs.
 *
 * @param reason what runs it
 * @param root the method it is reached from, {@code a.b.C.m}: the thread's {@code run} or the test
 *     class's method; the finding's own method when it is the root
 */
public record Demotion(Reason reason, String root) {

  /** What runs a demoted method. */
  public enum Reason {
    /**
     * Only a thread the library starts itself, a {@code java.lang.Thread} subclass's {@code run}: a
     * platform thread, which never pins a carrier.
     */
    LIBRARY_THREAD,
    /** Only test code shipped in the jar. */
    TEST_CODE
  }
}
