package dev.vtscope.testing;

import java.io.FileOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The JDK's own {@code jfr view} for many recordings in one JVM: for each pair of arguments, a
 * recording and a file, the jfr tool's {@code view} command run with the options before {@code --}
 * and the recording, what it prints going to the file. The command is the one the {@code jfr}
 * launcher runs ({@code jdk.jfr.internal.tool.Main} picks it and then exits, which is why it is not
 * called here); it needs {@code --add-exports=jdk.jfr/jdk.jfr.internal.tool=ALL-UNNAMED}.
 *
 * <p>Usage: {@code JfrViewProgram --width 1000 pinned-threads -- recording file [recording
 * file]...}
 */
public final class JfrViewProgram {

  private JfrViewProgram() {}

  public static void main(String[] args) throws Exception {
    List<String> all = List.of(args);
    int separator = all.indexOf("--");
    List<String> options = all.subList(0, separator);
    List<String> pairs = all.subList(separator + 1, all.size());
    Class<?> view = Class.forName("jdk.jfr.internal.tool.View");
    PrintStream out = System.out;
    for (int i = 0; i + 1 < pairs.size(); i += 2) {
      ArrayDeque<String> arguments = new ArrayDeque<>(options);
      arguments.add(pairs.get(i));
      // the bytes the launcher's standard output would get
      try (PrintStream file =
          new PrintStream(new FileOutputStream(pairs.get(i + 1)), false, out.charset())) {
        System.setOut(file);
        view.getMethod("execute", java.util.Deque.class)
            .invoke(view.getConstructor().newInstance(), arguments);
      } catch (InvocationTargetException e) {
        System.setOut(out);
        System.err.println("jfr view " + pairs.get(i) + ": " + e.getCause());
        System.exit(1);
      } finally {
        System.setOut(out);
      }
    }
  }
}
