package dev.vtscope.scan;

/**
 * Why a finding is listed after the ranked ones, at severity info: its method runs where no virtual
 * thread runs.
 *
 * @param reason what runs it
 * @param root the method it is reached from, {@code a.b.C.m}: the thread's {@code run} or the test
 *     class's method; the finding's own method when it is the root; for {@link
 *     Reason#PACKAGE_NOT_RUN} the package and what it is
 */
public record Demotion(Reason reason, String root) {

  /** What runs a demoted method. */
  public enum Reason {
    /**
     * Only a thread the library starts itself, a {@code java.lang.Thread} subclass's {@code run}: a
     * platform thread, which never pins a carrier.
     */
    LIBRARY_THREAD,
    /** Only a {@code java.util.Timer}'s own thread, as a {@code TimerTask}: a platform thread. */
    TIMER_THREAD,
    /** Only test code shipped in the jar. */
    TEST_CODE,
    /**
     * Only a package the knowledge file says an application does not run (a server shipped in its
     * client's jar), and nothing outside that package reaches it; the root is the package and what
     * it is.
     */
    PACKAGE_NOT_RUN,
    /**
     * Nothing: nothing in the class path calls it, it overrides nothing, and its package is one its
     * library keeps to itself ({@code .internal.}, {@code .shaded.}, {@code .shadow.}).
     */
    NOT_CALLED
  }
}
