package dev.vtscope.threaddump;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.recording.Frame;
import org.junit.jupiter.api.Test;

/**
 * Frames in the two syntaxes of thread dumps, read as a recording's: {@code StackTraceElement}'s
 * text (the JSON and plain-text dumps) and HotSpot's ({@code Thread.print}).
 */
class FramesTest {

  @Test
  void framesAsTheJsonWritesThem() {
    Frame app = Frames.ofStackTraceElement("dev.vtscope.App.run(App.java:12)");
    assertThat(app.loader()).isEqualTo(Frame.ClassLoaderKind.APPLICATION);
    assertThat(app.className()).isEqualTo("dev.vtscope.App");
    assertThat(app.method()).isEqualTo("run");
    assertThat(app.line()).isEqualTo(12);
    Frame jdk =
        Frames.ofStackTraceElement("java.base/jdk.internal.misc.Unsafe.park(Native Method)");
    assertThat(jdk.loader()).isEqualTo(Frame.ClassLoaderKind.BOOT);
    assertThat(jdk.className()).isEqualTo("jdk.internal.misc.Unsafe");
    assertThat(jdk.isNativeMethod()).isTrue();
    Frame loader = Frames.ofStackTraceElement("app//com.example.Foo.bar(Foo.java:3)");
    assertThat(loader.loader()).isEqualTo(Frame.ClassLoaderKind.APPLICATION);
    assertThat(loader.className()).isEqualTo("com.example.Foo");
    // a module of the application's, with its version, is not the JDK's
    Frame versioned = Frames.ofStackTraceElement("com.acme@1.2/com.acme.Lib.call(Lib.java:40)");
    assertThat(versioned.loader()).isEqualTo(Frame.ClassLoaderKind.APPLICATION);
    assertThat(versioned.line()).isEqualTo(40);
    Frame jdkVersioned =
        Frames.ofStackTraceElement("java.base@25.0.3/java.lang.Thread.sleep(Thread.java:509)");
    assertThat(jdkVersioned.loader()).isEqualTo(Frame.ClassLoaderKind.BOOT);
    // a hidden class's name holds a slash, which is not the module's
    Frame hidden =
        Frames.ofStackTraceElement(
            "jdk.jfr/jdk.jfr.internal.PlatformRecorder$$Lambda/0x000000080001fc88.run(Unknown"
                + " Source)");
    assertThat(hidden.className())
        .isEqualTo("jdk.jfr.internal.PlatformRecorder$$Lambda/0x000000080001fc88");
    assertThat(hidden.method()).isEqualTo("run");
    assertThat(hidden.loader()).isEqualTo(Frame.ClassLoaderKind.BOOT);
    Frame hiddenOnClassPath =
        Frames.ofStackTraceElement("com.acme.App$$Lambda/0x7f.run(Unknown Source)");
    assertThat(hiddenOnClassPath.className()).isEqualTo("com.acme.App$$Lambda/0x7f");
    assertThat(Frames.ofStackTraceElement("no frame")).isNull();
  }

  @Test
  void framesAsThreadPrintPrintsThem() {
    Frame jdk = Frames.ofPrinted("java.lang.Thread.sleep(java.base@25.0.3/Thread.java:509)");
    assertThat(jdk.className()).isEqualTo("java.lang.Thread");
    assertThat(jdk.method()).isEqualTo("sleep");
    assertThat(jdk.line()).isEqualTo(509);
    assertThat(jdk.loader()).isEqualTo(Frame.ClassLoaderKind.BOOT);
    assertThat(jdk.descriptor()).isNull();
    assertThat(jdk.bytecodeIndex()).isEqualTo(-1);
    Frame app = Frames.ofPrinted("app.Main$Inner.run(Main.java:12)");
    assertThat(app.className()).isEqualTo("app.Main$Inner");
    assertThat(app.loader()).isEqualTo(Frame.ClassLoaderKind.APPLICATION);
    Frame unknown = Frames.ofPrinted("java.lang.Object.wait(java.base@21.0.8/Unknown Source)");
    assertThat(unknown.line()).isEqualTo(-1);
    Frame nativeFrame =
        Frames.ofPrinted("jdk.internal.misc.Unsafe.park(java.base@25.0.3/Native Method)");
    assertThat(nativeFrame.isNativeMethod()).isTrue();
    // a hidden class keeps its address
    Frame stub =
        Frames.ofPrinted(
            "jdk.internal.foreign.abi.UpcallStub/0x00000000280c6000.invoke(java.base@25.0.3/Unknown"
                + " Source)");
    assertThat(stub.className())
        .isEqualTo("jdk.internal.foreign.abi.UpcallStub/0x00000000280c6000");
    assertThat(stub.method()).isEqualTo("invoke");
    assertThat(stub.loader()).isEqualTo(Frame.ClassLoaderKind.BOOT);
    assertThat(Frames.ofPrinted("no frame here")).isNull();
    assertThat(Frames.ofPrinted("noDot(File.java:1)")).isNull();
  }
}
