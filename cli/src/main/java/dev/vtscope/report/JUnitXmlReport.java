package dev.vtscope.report;

import dev.vtscope.analysis.Message;
import dev.vtscope.gate.CheckItem;
import dev.vtscope.gate.CheckResult;
import java.io.PrintWriter;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Writes a check as JUnit XML, the format CI systems (GitHub Actions reporters, GitLab, Jenkins)
 * display: one test suite, one test case per check, a failure element for each that failed.
 */
public final class JUnitXmlReport implements ReportRenderer {

  private static final Wording WORDING = Wording.standard();

  private final String suiteName;

  /**
   * @param suiteName the test suite's name, e.g. {@code vtscope check}
   */
  public JUnitXmlReport(String suiteName) {
    this.suiteName = suiteName;
  }

  @Override
  public void render(Report report, PrintWriter out) {
    if (!(report instanceof Report.Checked checked)) {
      throw new IllegalArgumentException("JUnit XML shows a check, not an analysis or a diff");
    }
    CheckResult result = checked.result();
    try {
      Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().newDocument();
      Element suites = doc.createElement("testsuites");
      doc.appendChild(suites);
      Element suite = doc.createElement("testsuite");
      attribute(suite, "name", suiteName);
      attribute(suite, "tests", Integer.toString(result.items().size()));
      attribute(suite, "failures", Long.toString(result.failures()));
      attribute(suite, "errors", "0");
      attribute(suite, "skipped", "0");
      attribute(suites, "tests", Integer.toString(result.items().size()));
      attribute(suites, "failures", Long.toString(result.failures()));
      suites.appendChild(suite);
      for (CheckItem item : result.items()) {
        Element testCase = doc.createElement("testcase");
        attribute(testCase, "classname", "vtscope." + item.kind());
        attribute(testCase, "name", WORDING.format(item.name()));
        if (!item.passed()) {
          Element failure = doc.createElement("failure");
          attribute(failure, "message", WORDING.format(item.result()));
          attribute(failure, "type", item.kind());
          text(failure, CheckReport.detail(item));
          testCase.appendChild(failure);
        } else {
          Element systemOut = doc.createElement("system-out");
          text(systemOut, WORDING.format(item.result()));
          testCase.appendChild(systemOut);
        }
        suite.appendChild(testCase);
      }
      if (!result.allowed().isEmpty()) {
        Element systemOut = doc.createElement("system-out");
        text(
            systemOut,
            "allowed:\n"
                + String.join(
                    "\n",
                    result.allowed().stream().map((Message m) -> WORDING.format(m)).toList()));
        suite.appendChild(systemOut);
      }
      if (!result.warnings().isEmpty()) {
        Element systemErr = doc.createElement("system-err");
        text(
            systemErr, String.join("\n", result.warnings().stream().map(WORDING::format).toList()));
        suite.appendChild(systemErr);
      }
      var transformer = TransformerFactory.newInstance().newTransformer();
      transformer.setOutputProperty(OutputKeys.INDENT, "yes");
      transformer.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
      transformer.transform(new DOMSource(doc), new StreamResult(out));
      out.flush();
    } catch (ParserConfigurationException | TransformerException e) {
      throw new IllegalStateException("cannot write JUnit XML: " + e.getMessage(), e);
    }
  }

  /**
   * Every attribute and text goes in through these two: names from the recording may hold
   * characters XML 1.0 cannot (an ESC, a NUL), which would leave a file no CI system reads.
   */
  private static void attribute(Element element, String name, String value) {
    element.setAttribute(name, Escaping.xml(value));
  }

  private static void text(Element element, String text) {
    element.setTextContent(Escaping.xml(text));
  }
}
