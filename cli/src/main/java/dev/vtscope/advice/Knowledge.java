package dev.vtscope.advice;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What vtscope knows that no recording says: JDK facts, library releases that fixed pinning, what
 * submit-failure messages mean, and the thresholds the rules use. Loaded from {@code
 * knowledge.json} beside this class; docs/findings.md describes each entry.
 */
public record Knowledge(
    JdkFacts jdk,
    Thresholds thresholds,
    List<Library> libraries,
    List<SubmitFailureMeaning> submitFailures) {

  public Knowledge {
    libraries = List.copyOf(libraries);
    submitFailures = List.copyOf(submitFailures);
  }

  /**
   * @param monitorsStopPinningIn the first release where synchronized no longer pins (JEP 491)
   * @param monitorsStopPinningSource where that is stated
   * @param foreignFunctionsFinalIn the first release with the final foreign-function API
   */
  public record JdkFacts(
      int monitorsStopPinningIn, String monitorsStopPinningSource, int foreignFunctionsFinalIn) {}

  /**
   * @param highCapacityShare share of carrier capacity (recording time × parallelism) at stake from
   *     which a finding is high
   * @param mediumCapacityShare the same, for medium
   * @param lowCapacityShare the same, for low; below it a finding is only information
   * @param starvationMinNanos how long every carrier must have been held before it is starvation
   * @param resizeSaturatedShare share of the recording with every carrier held from which a larger
   *     pool is recommended
   * @param contendedMonitorShare share of held carrier time spent entering monitors from which more
   *     carriers would only queue on the monitors
   * @param compensationHighShareOfMaxPool carriers started, as a share of maxPoolSize, from which
   *     compensation is high
   * @param shortRecordingNanos recordings shorter than this say little when nothing was seen
   * @param nearThresholdFactor pins shorter than this many times the threshold suggest that shorter
   *     ones were cut off
   * @param pinnedTimeQuantile the quantile of time the recommendation sizes for
   * @param maxRecommendedParallelism the largest parallelism vtscope recommends
   */
  public record Thresholds(
      double highCapacityShare,
      double mediumCapacityShare,
      double lowCapacityShare,
      long starvationMinNanos,
      double resizeSaturatedShare,
      double contendedMonitorShare,
      double compensationHighShareOfMaxPool,
      long shortRecordingNanos,
      double nearThresholdFactor,
      double pinnedTimeQuantile,
      int maxRecommendedParallelism) {}

  /**
   * A library known to pin, and the release that stopped it.
   *
   * @param name its name
   * @param packages package prefixes of its classes, each ending with a dot
   * @param artifact its Maven {@code group:artifact}
   * @param fixedIn the first release that no longer pins there, or null when there is none
   * @param change what that release changed, or why there is none
   * @param source where this is stated
   */
  public record Library(
      String name,
      List<String> packages,
      String artifact,
      String fixedIn,
      String change,
      String source) {

    public Library {
      packages = List.copyOf(packages);
    }

    boolean owns(String className) {
      return packages.stream().anyMatch(className::startsWith);
    }
  }

  /**
   * What a submit-failure message means.
   *
   * @param id a stable identifier
   * @param pattern a regular expression found in the message
   * @param meaning what happened
   * @param action what to do
   */
  public record SubmitFailureMeaning(String id, String pattern, String meaning, String action) {

    boolean matches(String message) {
      return message != null && Pattern.compile(pattern).matcher(message).find();
    }
  }

  /** The library that owns {@code className}, if vtscope knows it. */
  public Optional<Library> library(String className) {
    return libraries.stream().filter(l -> l.owns(className)).findFirst();
  }

  /** What a submit-failure message means, if vtscope knows. */
  public Optional<SubmitFailureMeaning> submitFailure(String message) {
    return submitFailures.stream().filter(m -> m.matches(message)).findFirst();
  }

  private static final Knowledge STANDARD = load();

  /** The knowledge shipped with vtscope. */
  public static Knowledge standard() {
    return STANDARD;
  }

  private static Knowledge load() {
    ObjectMapper mapper =
        new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    try (InputStream in = Knowledge.class.getResourceAsStream("knowledge.json")) {
      if (in == null) {
        throw new IllegalStateException("knowledge.json is missing from vtscope's jar");
      }
      return mapper.readValue(in, Knowledge.class);
    } catch (IOException e) {
      throw new UncheckedIOException("knowledge.json cannot be read", e);
    }
  }
}
