package dev.vtscope.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class AgentOptionsTest {

  @Test
  void noArgumentMeansLoopbackOnTheDefaultPort() throws Exception {
    assertThat(AgentOptions.parse(null)).isEqualTo(AgentOptions.DEFAULTS);
    assertThat(AgentOptions.DEFAULTS.host()).isEqualTo("127.0.0.1");
    assertThat(AgentOptions.DEFAULTS.port()).isEqualTo(9464);
  }

  @Test
  void optionsAreNameValuePairs() throws Exception {
    AgentOptions o =
        AgentOptions.parse(
            "port=9000,host=0.0.0.0,threshold=0ms,interval=5s,series=20,micrometer=false,"
                + "opentelemetry=false");
    assertThat(o)
        .isEqualTo(
            new AgentOptions(
                "0.0.0.0", 9000, Duration.ZERO, Duration.ofSeconds(5), 20, false, false));
    assertThat(AgentOptions.DEFAULTS.micrometer()).isTrue();
    assertThat(AgentOptions.DEFAULTS.openTelemetry()).isTrue();
  }

  @Test
  void aBadOptionIsOneLineNamingIt() {
    assertThatThrownBy(() -> AgentOptions.parse("prot=9000"))
        .hasMessage(
            "unknown option 'prot' (options: host, port, threshold, interval, series, micrometer,"
                + " opentelemetry)");
    assertThatThrownBy(() -> AgentOptions.parse("micrometer=no"))
        .hasMessage("micrometer takes true or false, not 'no'");
    assertThatThrownBy(() -> AgentOptions.parse("port=99999"))
        .hasMessage("port takes a number from 0 to 65535, not '99999'");
    assertThatThrownBy(() -> AgentOptions.parse("interval=500ms"))
        .hasMessage("interval must be 1s or more, not 500ms");
    assertThatThrownBy(() -> AgentOptions.parse("threshold=fast"))
        .hasMessage("threshold takes a duration like 20ms, 10s or 1m, not 'fast'");
    assertThatThrownBy(() -> AgentOptions.parse("9464")).hasMessageContaining("is not name=value");
    assertThatThrownBy(() -> AgentOptions.parse("port=1,interval=5s,port=2"))
        .hasMessage("port is given twice (port=1, port=2): give it once");
    assertThatThrownBy(() -> AgentOptions.parse("Series=5,series=5"))
        .hasMessage("series is given twice (Series=5, series=5): give it once");
    assertThatThrownBy(() -> AgentOptions.parse("host="))
        .hasMessage("host takes an address or a name of this machine, not ''");
  }
}
