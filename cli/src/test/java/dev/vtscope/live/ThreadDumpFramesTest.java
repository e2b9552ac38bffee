package dev.vtscope.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.recording.Frame;
import org.junit.jupiter.api.Test;

/**
 * Frames as the JSON dump writes them ({@code StackTraceElement}'s text), read as a recording's.
 */
class ThreadDumpFramesTest {

  @Test
  void jsonFrames() {
    Frame app = ThreadDump.jsonFrame("dev.vtscope.App.run(App.java:12)");
    assertThat(app.loader()).isEqualTo(Frame.ClassLoaderKind.APPLICATION);
    assertThat(app.className()).isEqualTo("dev.vtscope.App");
    assertThat(app.method()).isEqualTo("run");
    assertThat(app.line()).isEqualTo(12);
    Frame jdk = ThreadDump.jsonFrame("java.base/jdk.internal.misc.Unsafe.park(Native Method)");
    assertThat(jdk.loader()).isEqualTo(Frame.ClassLoaderKind.BOOT);
    assertThat(jdk.className()).isEqualTo("jdk.internal.misc.Unsafe");
    assertThat(jdk.isNativeMethod()).isTrue();
    Frame loader = ThreadDump.jsonFrame("app//com.example.Foo.bar(Foo.java:3)");
    assertThat(loader.loader()).isEqualTo(Frame.ClassLoaderKind.APPLICATION);
    assertThat(loader.className()).isEqualTo("com.example.Foo");
    // a module of the application's, with its version, is not the JDK's
    Frame versioned = ThreadDump.jsonFrame("com.acme@1.2/com.acme.Lib.call(Lib.java:40)");
    assertThat(versioned.loader()).isEqualTo(Frame.ClassLoaderKind.APPLICATION);
    assertThat(versioned.line()).isEqualTo(40);
    Frame jdkVersioned =
        ThreadDump.jsonFrame("java.base@25.0.3/java.lang.Thread.sleep(Thread.java:509)");
    assertThat(jdkVersioned.loader()).isEqualTo(Frame.ClassLoaderKind.BOOT);
    assertThat(ThreadDump.jsonFrame("no frame")).isNull();
  }
}
