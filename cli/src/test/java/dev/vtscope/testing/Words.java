package dev.vtscope.testing;

import dev.vtscope.advice.CarrierPool;
import dev.vtscope.advice.Finding;
import dev.vtscope.analysis.Note;
import dev.vtscope.report.Wording;
import java.util.List;

/** What a finding or a note says, worded as every report words it, for assertions on text. */
public final class Words {

  private static final Wording WORDING = Wording.standard();

  private Words() {}

  public static String title(Finding f) {
    return WORDING.title(f);
  }

  public static String explanation(Finding f) {
    return WORDING.explanation(f);
  }

  public static List<String> actions(Finding f) {
    return WORDING.actions(f);
  }

  public static String message(Note n) {
    return WORDING.message(n);
  }

  public static List<String> reasoning(CarrierPool pool) {
    return pool.reasoning().stream().map(WORDING::format).toList();
  }
}
