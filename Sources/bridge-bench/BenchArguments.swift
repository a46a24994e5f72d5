/// The bench's command line: `bridge-bench [--quick] [--bridge PATH]`.
struct BenchArguments: Sendable {
    static let usage = """
    usage: bridge-bench [--quick] [--bridge PATH] [--broker-nodelay]
      --quick           every scenario small (seconds), for CI smoke runs; times are not meaningful
      --bridge PATH     the switchboard-bridge binary to measure (default: the one beside bridge-bench)
      --broker-nodelay  run mosquitto with `set_tcp_nodelay true` (default: mosquitto's defaults)
    Build first with: swift build -c release
    """

    var isQuick = false
    var bridgePath: String?
    var brokerTCPNoDelay = false

    static func parse(_ arguments: [String]) -> Result<BenchArguments, BenchFailure> {
        var parsed = BenchArguments()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": parsed.isQuick = true
            case "--broker-nodelay": parsed.brokerTCPNoDelay = true
            case "--bridge":
                guard let path = rest.popFirst() else { return .failure(BenchFailure("--bridge needs a path")) }
                parsed.bridgePath = path
            default: return .failure(BenchFailure("unknown argument '\(argument)'"))
            }
        }
        return .success(parsed)
    }
}
