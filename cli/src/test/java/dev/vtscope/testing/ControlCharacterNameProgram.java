package dev.vtscope.testing;

/**
 * A JVM with a thread whose name holds an ESC character (an ANSI colour, as a logging library may
 * give it), for the tests of taking its thread dump: the JDK's JSON writer fails on such a name (on
 * JDK 21 and 25) and leaves its file cut short, so the dump falls back to the plain text. It starts
 * the thread, asleep, prints {@code ready}, and runs until its standard input closes.
 */
public final class ControlCharacterNameProgram {

  /** The thread's name. */
  public static final String NAME = "pt-\u001b[31mred";

  private ControlCharacterNameProgram() {}

  public static void main(String[] args) throws Exception {
    Thread.ofPlatform()
        .daemon()
        .name(NAME)
        .start(
            () -> {
              try {
                Thread.sleep(Long.MAX_VALUE);
              } catch (InterruptedException e) {
                // ends with the program
              }
            });
    System.out.println("ready");
    System.out.flush();
    while (System.in.read() >= 0) {
      // runs until the test closes standard input (or kills it)
    }
  }
}
