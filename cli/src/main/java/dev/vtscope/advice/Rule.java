package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import java.util.List;

/** A stateless check of an analysis; it may find nothing, one thing, or one thing per site. */
interface Rule {

  List<Finding> evaluate(Analysis analysis, Knowledge knowledge);
}
