package dev.vtscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * What the agent says when it cannot listen where it was told: one line that names the option to
 * change, a host for a bad host and a port for a port in use, and nothing started.
 */
class AgentStartTest {

  @Test
  void aHostThatDoesNotResolveIsSaidToBeTheHost() throws Exception {
    assertThat(started("host=not.a.host.invalid,port=0"))
        .isEqualTo(
            "vtscope-agent: host=not.a.host.invalid does not resolve to an address; not started:"
                + " choose another with host="
                + System.lineSeparator());
  }

  @Test
  void anAddressOfAnotherMachineIsSaidToBeTheHost() throws Exception {
    // 192.0.2.0/24 is reserved for documentation (RFC 5737): no machine has it.
    assertThat(started("host=192.0.2.1,port=0"))
        .startsWith("vtscope-agent: host=192.0.2.1 is not an address of this machine (")
        .endsWith("); not started: choose another with host=" + System.lineSeparator())
        .hasLineCount(1);
  }

  @Test
  void aPortInUseIsSaidToBeThePort() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      int port = taken.getLocalPort();
      assertThat(started("host=127.0.0.1,port=" + port))
          .startsWith("vtscope-agent: cannot listen on 127.0.0.1:" + port + " (")
          .endsWith("); not started: choose another with port=" + System.lineSeparator())
          .hasLineCount(1);
    }
  }

  /** What the agent says on standard error when started with {@code args}. */
  private static String started(String args) throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    VtScopeAgent.run(AgentOptions.parse(args), new PrintStream(err, true, StandardCharsets.UTF_8));
    return err.toString(StandardCharsets.UTF_8);
  }
}
