/// The text of `--help` and `--version`.
public enum UsageText {
    public static let version = "switchboard-bridge \(BridgeVersion.number)"

    public static let help = """
    switchboard-bridge: MQTT lights, plugs and scenes as Switchboard tiles on Aivi.

    Usage:
      switchboard-bridge run    [--config PATH] [--log-level LEVEL]   run the daemon
      switchboard-bridge check  [--config PATH] [--mqtt [--seconds 3]] validate a config, list widgets, actions and topics;
                                                                      with --mqtt also which devices the broker lets it hear
      switchboard-bridge render [--config PATH] [--state ID=on|off ...]
                                                                      print the content that would be published
      switchboard-bridge watch  [--config PATH] [--seconds N] [--json]
                                                                      show live what each device says and what the bridge reads
      switchboard-bridge demo   [--port PORT] [--listen ADDRESS] [--config PATH]
                                                                      everything on loopback, no phone or account needed
      switchboard-bridge discover [--mqtt-host HOST] [--port PORT] [--username U --password-file F]
                                [--tls | --tls-ca-file F] [--config PATH] [--seconds 5] [--widget home]
                                [--output FILE] [--ha-prefix homeassistant] [--token-file F]
                                                                      write a config from what the devices announce
      switchboard-bridge --version | --help

    Options:
      --config PATH      the config file (default \(defaultConfigPath); for demo, config/demo.yaml,
                         else the package's examples/demo.yaml)
      --log-level LEVEL  error, warning, info (default) or debug
      --state ID=on|off  for render: a toggle's state (ID is an action id or slug/id)
      --port PORT        for demo: the web page's port (default: any free port); for discover: the broker's (1883)
      --mqtt-host HOST   for discover: the broker (default 127.0.0.1), with --username U --password-file F
                         --tls --tls-ca-file F as in the config's mqtt: section, or --config PATH to reuse one
      --widget SLUG      for discover: the widget's slug (default home)
      --output FILE      for discover: write the config there (never overwrites; default: stdout)
      --ha-prefix P      for discover: the Home Assistant discovery prefix (default homeassistant)
      --token-file F     for discover: the token file the config names (default /etc/switchboard-bridge/aivi-token)
      --seconds N        for watch: stop after N seconds (default: at Ctrl-C); for discover: listen N seconds (default 5);
                         and how long check with --mqtt listens (default 3)
      --mqtt             for check: once the config passes, connect to its broker, send the state queries
                         and list which actions' devices speak (and near misses of those that do not)
      --json             for watch: one JSON object per line, for scripts
      --listen ADDRESS   for demo: the web page's address (default 127.0.0.1; the page has no
                         authentication, so another address is warned about)
    """

    public static let defaultConfigPath = "/etc/switchboard-bridge/bridge.yaml"
}
