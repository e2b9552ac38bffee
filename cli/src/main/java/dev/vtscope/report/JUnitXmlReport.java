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
      suite.setAttribute("name", suiteName);
      suite.setAttribute("tests", Integer.toString(result.items().size()));
      suite.setAttribute("failures", Long.toString(result.failures()));
      suite.setAttribute("errors", "0");
      suite.setAttribute("skipped", "0");
      suites.setAttribute("tests", Integer.toString(result.items().size()));
      suites.setAttribute("failures", Long.toString(result.failures()));
      suites.appendChild(suite);
      for (CheckItem item : result.items()) {
        Element testCase = doc.createElement("testcase");
        testCase.setAttribute("classname", "vtscope." + item.kind());
        testCase.setAttribute("name", WORDING.format(item.name()));
        if (!item.passed()) {
          Element failure = doc.createElement("failure");
          failure.setAttribute("message", WORDING.format(item.result()));
          failure.setAttribute("type", item.kind());
          failure.setTextContent(CheckReport.detail(item));
          testCase.appendChild(failure);
        } else {
          Element systemOut = doc.createElement("system-out");
          systemOut.setTextContent(WORDING.format(item.result()));
          testCase.appendChild(systemOut);
        }
        suite.appendChild(testCase);
      }
      if (!result.allowed().isEmpty()) {
        Element systemOut = doc.createElement("system-out");
        systemOut.setTextContent(
            "allowed:\n"
                + String.join(
                    "\n",
                    result.allowed().stream().map((Message m) -> WORDING.format(m)).toList()));
        suite.appendChild(systemOut);
      }
      if (!result.warnings().isEmpty()) {
        Element systemErr = doc.createElement("system-err");
        systemErr.setTextContent(
            String.join("\n", result.warnings().stream().map(WORDING::format).toList()));
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
}
