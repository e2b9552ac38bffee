package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.recording.ChunkHeader;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every kind of bad input gets one line on stderr that starts with "vtscope analyze:" and a
 * documented exit code, never a stack trace; inputs are never changed.
 */
class BadInputTest {

  @TempDir Path dir;

  private static Path sample() {
    return TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr");
  }

  /** A recording of another run, with pins of its own. */
  private static Path otherSample() {
    return TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized-method.jfr");
  }

  private static long pinnedEvents(Path recording) throws Exception {
    return new ObjectMapper()
        .readTree(Cli.run("analyze", "--format", "json", recording.toString()).out())
        .at("/pinned/events")
        .asLong();
  }

  private static void assertOneLineError(Cli.Result result, int code, String... fragments) {
    assertThat(result.exitCode()).as(result.err()).isEqualTo(code);
    assertThat(result.out()).isEmpty();
    assertThat(result.err().lines().toList()).as(result.err()).hasSize(1);
    assertThat(result.err())
        .startsWith("vtscope analyze: ")
        .doesNotContain("Exception")
        .doesNotContain("\tat ");
    for (String fragment : fragments) {
      assertThat(result.err()).contains(fragment);
    }
  }

  @Test
  void missingFile() {
    assertOneLineError(
        Cli.run("analyze", dir.resolve("nope.jfr").toString()), 3, "no such file or folder");
  }

  @Test
  void emptyFile() throws IOException {
    Path empty = Files.createFile(dir.resolve("empty.jfr"));
    assertOneLineError(Cli.run("analyze", empty.toString()), 4, "the file is empty");
  }

  @Test
  void fileThatIsNotJfr() throws IOException {
    Path text = Files.writeString(dir.resolve("notes.jfr"), "this is not a recording\n".repeat(10));
    assertOneLineError(Cli.run("analyze", text.toString()), 4, "not a JFR recording");
  }

  @Test
  void truncatedRecording() throws IOException {
    byte[] bytes = Files.readAllBytes(sample());
    Path cut = Files.write(dir.resolve("cut.jfr"), Arrays.copyOf(bytes, bytes.length / 2));
    assertOneLineError(Cli.run("analyze", cut.toString()), 4, "truncated");
  }

  /** A whole chunk, then the start of a broken one: the valid chunk is counted in the singular. */
  @Test
  void damageAfterOneChunkCountsItInTheSingular() throws IOException {
    byte[] bytes =
        Files.readAllBytes(TestRecordings.repoRoot().resolve("samples/jdk21/class-init.jfr"));
    Path damaged = dir.resolve("damaged-after-one.jfr");
    Files.write(damaged, bytes);
    Files.write(
        damaged,
        "FLR\0garbagegarbagegarbagegarbage".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
        java.nio.file.StandardOpenOption.APPEND);
    Cli.Result result = Cli.run("analyze", damaged.toString());
    assertThat(result.out()).contains(" after 1 valid chunk: ").doesNotContain("chunk(s)");
  }

  @Test
  void chunkSizeZeroIsAnErrorNotAHang() throws IOException {
    byte[] bytes = Files.readAllBytes(sample());
    ByteBuffer.wrap(bytes).putLong(8, 0L);
    Path zero = Files.write(dir.resolve("zero.jfr"), bytes);
    assertOneLineError(Cli.run("analyze", zero.toString()), 4, "a size of 0 bytes");
  }

  @Test
  void damagedMetadataIsAnErrorNotAStackTrace() throws IOException {
    byte[] bytes = Files.readAllBytes(sample());
    long metadataOffset = ByteBuffer.wrap(bytes).getLong(24);
    for (int i = 0; i < 64 && metadataOffset + 8 + i < bytes.length; i++) {
      bytes[(int) metadataOffset + 8 + i] = (byte) 0x7f;
    }
    Path damaged = Files.write(dir.resolve("damaged.jfr"), bytes);
    Cli.Result result = Cli.run("analyze", damaged.toString());
    assertOneLineError(result, 4, "damaged.jfr");
  }

  @Test
  void aRecordOfSizeZeroIsDamageNotAnEmptyRecording() throws IOException {
    // The JDK's reader stops quietly at such a record: the file would read as one without events.
    byte[] bytes = Files.readAllBytes(sample());
    bytes[ChunkHeader.SIZE] = 0;
    Path damaged = Files.write(dir.resolve("zero-record.jfr"), bytes);
    assertOneLineError(Cli.run("analyze", damaged.toString()), 4, "damaged at byte 68");
  }

  @Test
  void aDamagedSecondChunkKeepsTheFirst() throws Exception {
    byte[] good = Files.readAllBytes(sample());
    // another recording's chunk: a copy of the first would be read once, not read again
    byte[] bad = Files.readAllBytes(otherSample());
    bad[ChunkHeader.SIZE] = 0;
    Path both = dir.resolve("two-chunks.jfr");
    Files.write(both, good);
    Files.write(both, bad, java.nio.file.StandardOpenOption.APPEND);

    Cli.Result result = Cli.run("analyze", "--format", "json", both.toString());

    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(result.out());
    assertThat(report.at("/inputs/0/chunks").asInt()).isEqualTo(1);
    assertThat(report.at("/inputs/0/problem").asText()).contains("chunk 2 is damaged at byte");
    assertThat(report.at("/pinned/events").asLong()).isPositive();
  }

  @Test
  void folderWithoutRecordings() throws IOException {
    Files.writeString(dir.resolve("readme.txt"), "nothing here");
    assertOneLineError(Cli.run("analyze", dir.toString()), 3, "holds no .jfr recordings");
  }

  @Test
  void anUnreadableRecordingInAFolderIsNamedAndTheOthersAnalysed() throws Exception {
    Path folder = Files.createDirectories(dir.resolve("several"));
    Files.copy(sample(), folder.resolve("a.jfr"));
    Files.writeString(folder.resolve("b.jfr"), "not a recording");
    Files.copy(otherSample(), folder.resolve("c.jfr"));

    Cli.Result result = Cli.run("analyze", "--format", "json", folder.toString());

    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(result.out());
    assertThat(report.at("/inputs").size()).isEqualTo(2);
    JsonNode skipped = report.at("/notes/0");
    assertThat(skipped.path("id").asText()).isEqualTo("unreadable-file");
    assertThat(skipped.path("severity").asText()).isEqualTo("warning");
    assertThat(skipped.path("message").asText())
        .contains(folder.resolve("b.jfr").toString(), "not a JFR recording");
    assertThat(report.at("/pinned/events").asLong())
        .isEqualTo(pinnedEvents(sample()) + pinnedEvents(otherSample()))
        .isGreaterThan(pinnedEvents(sample()));
  }

  @Test
  void aFolderOfUnreadableRecordingsIsAnError() throws IOException {
    Path folder = Files.createDirectories(dir.resolve("bad"));
    Files.writeString(folder.resolve("a.jfr"), "not a recording");
    Files.writeString(folder.resolve("b.jfr"), "nor this");
    assertOneLineError(Cli.run("analyze", folder.toString()), 4, "no readable recording");
  }

  /**
   * A named pipe is read as standard input and a shell's {@code <(...)} are, its writer awaited.
   */
  @Test
  void aNamedPipeIsReadAsStandardInputIs() throws Exception {
    Pipe pipe = pipe("pipe.jfr", Files.readAllBytes(sample()));
    Cli.Result piped = Cli.run("analyze", "--format", "json", pipe.path().toString());
    pipe.writer().get();
    assertThat(piped.exitCode()).as(piped.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(piped.out());
    assertThat(report.at("/inputs/0/path").asText()).isEqualTo(pipe.path().toString());
    assertThat(report.at("/pinned/events").asLong()).isEqualTo(pinnedEvents(sample()));
  }

  @Test
  void aPipeThatIsNotARecordingIsRefusedFromItsFirstBytes() throws Exception {
    Pipe pipe =
        pipe(
            "junk.jfr", "{\"schemaVersion\": 2}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    Cli.Result junk = Cli.run("analyze", pipe.path().toString());
    pipe.writer().get();
    assertOneLineError(junk, 4, pipe.path() + ": not a JFR recording but JSON");
  }

  /** A named pipe in the test's folder, and the writer that fills it once a reader opens it. */
  private record Pipe(Path path, java.util.concurrent.CompletableFuture<Void> writer) {}

  /**
   * Makes the named pipe {@code name} and starts writing {@code bytes} into it, which blocks until
   * the command under test opens it; the test waits on the writer once the command is done.
   */
  private Pipe pipe(String name, byte[] bytes) throws Exception {
    Path fifo = dir.resolve(name);
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assumeFalse(mkfifo.waitFor() != 0, "mkfifo is not available on this system");
    return new Pipe(
        fifo,
        java.util.concurrent.CompletableFuture.runAsync(
            () -> {
              try (var out = new java.io.FileOutputStream(fifo.toFile())) {
                out.write(bytes);
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            }));
  }

  @Test
  void aDeviceIsRefusedNotRead() {
    assertOneLineError(Cli.run("analyze", "/dev/zero"), 3, "/dev/zero: not a regular file");
  }

  @Test
  void aLinkInAFolderThatPointsNowhereIsAnUnreadableFile() throws Exception {
    Path folder = Files.createDirectories(dir.resolve("linked"));
    Files.copy(sample(), folder.resolve("a.jfr"));
    Path dangling = Files.createSymbolicLink(folder.resolve("b.jfr"), dir.resolve("gone.jfr"));

    Cli.Result result = Cli.run("analyze", "--format", "json", folder.toString());

    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(result.out());
    assertThat(report.at("/inputs").size()).isEqualTo(1);
    JsonNode skipped = report.at("/notes/0");
    assertThat(skipped.path("id").asText()).isEqualTo("unreadable-file");
    assertThat(skipped.path("severity").asText()).isEqualTo("warning");
    assertThat(skipped.path("message").asText())
        .contains(dangling + ": cannot read (a link to " + dir.resolve("gone.jfr"));
  }

  @Test
  void aPipeAndASocketInAFolderAreUnreadableFilesAndThePipeIsNeverOpened() throws Exception {
    Path folder = Files.createDirectories(dir.resolve("odd"));
    Files.copy(sample(), folder.resolve("a.jfr"));
    Path fifo = folder.resolve("b.jfr");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    org.junit.jupiter.api.Assumptions.assumeTrue(mkfifo.waitFor() == 0, "no mkfifo");
    Path socket = folder.resolve("c.jfr");
    try (var server =
        java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
      server.bind(java.net.UnixDomainSocketAddress.of(socket));

      // opening the pipe would wait for a writer that never comes: the run would not end
      Cli.Result result = Cli.run("analyze", "--format", "json", folder.toString());

      assertThat(result.exitCode()).as(result.err()).isZero();
      JsonNode report = new ObjectMapper().readTree(result.out());
      assertThat(report.at("/inputs").size()).isEqualTo(1);
      java.util.List<String> notes = new java.util.ArrayList<>();
      report
          .at("/notes")
          .forEach(n -> notes.add(n.path("id").asText() + " " + n.path("message").asText()));
      assertThat(notes)
          .anySatisfy(
              n ->
                  assertThat(n)
                      .startsWith("unreadable-file " + fifo + ": cannot read (it is a named pipe")
                      .contains("name it on its own to read it"))
          .anySatisfy(
              n ->
                  assertThat(n)
                      .startsWith(
                          "unreadable-file " + socket + ": cannot read (it is a socket, not a"));
    }
  }

  @Test
  void aRecordingNamedInCapitalsIsFoundInAFolder() throws Exception {
    Path folder = Files.createDirectories(dir.resolve("caps"));
    Files.copy(sample(), folder.resolve("A.JFR"));
    Files.copy(otherSample(), folder.resolve("b.Jfr"));
    Cli.Result result = Cli.run("analyze", "--format", "json", folder.toString());
    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(result.out());
    assertThat(report.at("/inputs").size()).isEqualTo(2);
  }

  @Test
  void fileWithoutReadPermission() throws IOException {
    // root reads every file whatever its permissions: the check cannot be made as root.
    assumeFalse("root".equals(System.getProperty("user.name")), "running as root");
    Path locked = Files.copy(sample(), dir.resolve("locked.jfr"));
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("-w-------"));
    assertOneLineError(Cli.run("analyze", locked.toString()), 3, "permission denied");
  }

  @Test
  void corruptAfterValidChunksIsReadAsFarAsPossibleWithANote() throws Exception {
    byte[] good = Files.readAllBytes(sample());
    byte[] bytes = Arrays.copyOf(good, good.length + 4096);
    Arrays.fill(bytes, good.length, bytes.length, (byte) 0x55);
    Path partial = Files.write(dir.resolve("partial.jfr"), bytes);
    String before = sha256(partial);

    Cli.Result result = Cli.run("analyze", "--format", "json", partial.toString());

    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(result.out());
    Cli.Result whole = Cli.run("analyze", "--format", "json", sample().toString());
    JsonNode wholeReport = new ObjectMapper().readTree(whole.out());
    assertThat(report.at("/pinned/events").asLong())
        .isEqualTo(wholeReport.at("/pinned/events").asLong())
        .isPositive();
    assertThat(report.at("/inputs/0/complete").asBoolean()).isFalse();
    assertThat(report.at("/inputs/0/problem").asText()).contains("byte " + good.length);
    assertThat(report.get("notes").toString()).contains("partial-read");
    assertThat(sha256(partial)).as("the input is unchanged").isEqualTo(before);
  }

  @Test
  void badOptionIsAUsageError() {
    Cli.Result result = Cli.run("analyze", "--group-by", "colour", sample().toString());
    assertOneLineError(
        result, 2, "--group-by takes culprit, stack, top-frame or reason, not 'colour'");
  }

  @Test
  void verboseShowsTheCause() throws IOException {
    Path text = Files.writeString(dir.resolve("notes.jfr"), "not a recording");
    Cli.Result result = Cli.run("analyze", "--verbose", text.toString());
    assertThat(result.exitCode()).isEqualTo(4);
    assertThat(result.err()).startsWith("vtscope analyze: ");
  }

  private static String sha256(Path file) throws Exception {
    return HexFormat.of()
        .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
  }
}
