package dev.vtscope.live;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Frames as the JSON dump ({@code StackTraceElement}'s text) and {@code Thread.print} write them.
 */
class ThreadDumpFramesTest {

  @Test
  void jsonFrames() {
    ThreadDump.StackLine app = ThreadDump.jsonFrame("dev.vtscope.App.run(App.java:12)");
    assertThat(app.module()).isNull();
    assertThat(app.className()).isEqualTo("dev.vtscope.App");
    assertThat(app.method()).isEqualTo("run");
    assertThat(app.line()).isEqualTo(12);
    ThreadDump.StackLine jdk =
        ThreadDump.jsonFrame("java.base/jdk.internal.misc.Unsafe.park(Native Method)");
    assertThat(jdk.module()).isEqualTo("java.base");
    assertThat(jdk.className()).isEqualTo("jdk.internal.misc.Unsafe");
    assertThat(jdk.nativeMethod()).isTrue();
    ThreadDump.StackLine loader = ThreadDump.jsonFrame("app//com.example.Foo.bar(Foo.java:3)");
    assertThat(loader.module()).isNull();
    assertThat(loader.className()).isEqualTo("com.example.Foo");
    ThreadDump.StackLine versioned =
        ThreadDump.jsonFrame("com.acme@1.2/com.acme.Lib.call(Lib.java:40)");
    assertThat(versioned.module()).isEqualTo("com.acme");
    assertThat(ThreadDump.jsonFrame("no frame")).isNull();
  }
}
