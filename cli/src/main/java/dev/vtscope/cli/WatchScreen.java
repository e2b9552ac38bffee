package dev.vtscope.cli;

import dev.vtscope.advice.Finding;
import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.HumanDurations;
import dev.vtscope.analysis.LiveSnapshot;
import dev.vtscope.live.Watching;
import dev.vtscope.report.Escaping;
import dev.vtscope.report.WatchView;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.utils.NonBlockingReader;

/**
 * What {@code vtscope watch} shows of each interval: on a terminal a screen redrawn every interval
 * (q quits), in a pipe or file one line per interval and what happens on stderr.
 */
final class WatchScreen implements Watching.Display {

  private final PrintWriter stdout;
  private final PrintWriter stderr;
  private final TerminalFacts facts;
  private final WatchView view;
  private boolean waitingSaid;

  /**
   * @param top the sites shown on the screen
   */
  WatchScreen(PrintWriter stdout, PrintWriter stderr, int top) {
    this.stdout = stdout;
    this.stderr = stderr;
    this.facts = TerminalFacts.detect();
    this.view = new WatchView(facts.interactive() ? facts.width() : 0, top);
  }

  /** The keys that quit, which a standard output that fails quits too. */
  private Keys keys;

  @Override
  public Watching.Quit openQuit() {
    keys = Keys.open(facts.interactive());
    return keys;
  }

  /**
   * Ends watching as q does when standard output failed (a closed pipe, a full disk): nothing more
   * would be seen, and the recording in the target is stopped rather than left running.
   */
  private void quitIfUnwritable() {
    if (stdout.checkError() && keys != null) {
      keys.interrupted.set(true);
    }
  }

  @Override
  public void started(Watching.Watched watched) {
    if (!facts.interactive()) {
      stderr.println(
          "vtscope watch: watching "
              + Escaping.terminal(watched.title())
              + (watched.recordingName() == null
                  ? ""
                  : " (JFR recording " + Escaping.terminal(watched.recordingName()) + ")")
              + ", a line every "
              + HumanDurations.format(watched.every().toNanos())
              + "; Ctrl-C stops");
      stderr.flush();
    }
  }

  @Override
  public void waiting(Watching.Watched watched, long elapsedNanos) {
    if (facts.interactive()) {
      stdout.print("\033[H\033[2J");
      stdout.println(Escaping.terminal(watched.title()));
      stdout.println(
          "waiting for a JFR recording in "
              + Escaping.terminal(String.valueOf(watched.folder()))
              + " ("
              + HumanDurations.format(elapsedNanos)
              + "); q stops");
    } else if (!waitingSaid) {
      stderr.println(
          "vtscope watch: no JFR recording in "
              + Escaping.terminal(String.valueOf(watched.folder()))
              + " yet; waiting");
      stderr.flush();
      waitingSaid = true;
    }
    stdout.flush();
    quitIfUnwritable();
  }

  @Override
  public void interval(
      Watching.Watched watched,
      LiveSnapshot snapshot,
      List<Finding> findings,
      Set<String> fresh,
      Map<String, Severity> was,
      long elapsedNanos) {
    if (facts.interactive()) {
      stdout.print("\033[H\033[2J");
      // the recording's name on screen: after a kill -9 of vtscope, JFR.stop needs it
      view.screen(
              watched.recordingName() == null
                  ? watched.title()
                  : watched.title() + " · JFR recording " + watched.recordingName(),
              snapshot,
              findings,
              fresh,
              was,
              elapsedNanos,
              watched.every().toNanos())
          .forEach(stdout::println);
    } else {
      view.lines(snapshot, findings, fresh, was, elapsedNanos).forEach(stdout::println);
    }
    stdout.flush();
    quitIfUnwritable();
  }

  /**
   * The q key on a terminal, and Ctrl-C (SIGINT) anywhere: both end watching the same way, with the
   * recording stopped and exit code 0. On a terminal the keys are read raw; a terminal library left
   * to itself would let Ctrl-C end the JVM at once, before vtscope stops its recording in the
   * target.
   */
  private static final class Keys implements Watching.Quit {
    private static final long SLICE_MILLIS = 100;

    private final Terminal terminal;
    private final NonBlockingReader reader;
    private final java.util.concurrent.atomic.AtomicBoolean interrupted =
        new java.util.concurrent.atomic.AtomicBoolean();
    private Object previousHandler;

    private Keys(Terminal terminal) {
      this.terminal = terminal;
      this.reader = terminal == null ? null : terminal.reader();
    }

    static Keys open(boolean interactive) {
      Keys keys = null;
      if (interactive) {
        try {
          Terminal terminal =
              TerminalBuilder.builder()
                  .system(true)
                  .signalHandler(Terminal.SignalHandler.SIG_IGN)
                  .build();
          terminal.enterRawMode();
          keys = new Keys(terminal);
          Keys opened = keys;
          terminal.handle(Terminal.Signal.INT, signal -> opened.interrupted.set(true));
          return keys;
        } catch (IOException | RuntimeException e) {
          keys = null; // no raw mode: Ctrl-C is caught as below
        }
      }
      Keys plain = new Keys(null);
      plain.previousHandler =
          org.jline.utils.Signals.register("INT", () -> plain.interrupted.set(true));
      return plain;
    }

    /**
     * Waits until {@code deadline} ({@link System#nanoTime}); true when q or Ctrl-C was pressed
     * meanwhile.
     */
    @Override
    public boolean awaitQuitUntil(long deadline) throws InterruptedException {
      while (!interrupted.get()) {
        long leftNanos = deadline - System.nanoTime();
        if (leftNanos <= 0) {
          return false;
        }
        // rounded up: a wait that ended a fraction of a millisecond early would end an interval
        // before its time
        long slice = Math.min((leftNanos + 999_999) / 1_000_000, SLICE_MILLIS);
        if (reader == null) {
          Thread.sleep(slice);
          continue;
        }
        int c;
        try {
          c = reader.read(slice);
        } catch (IOException e) {
          Thread.sleep(slice);
          continue;
        }
        if (c == 'q' || c == 'Q' || c == 3) {
          return true;
        }
        if (c == NonBlockingReader.EOF) {
          Thread.sleep(slice);
        }
      }
      return true;
    }

    @Override
    public void close() {
      if (previousHandler != null) {
        org.jline.utils.Signals.unregister("INT", previousHandler);
      }
      if (terminal != null) {
        try {
          terminal.close();
        } catch (IOException e) {
          // the terminal is restored when the process ends
        }
      }
    }
  }
}
