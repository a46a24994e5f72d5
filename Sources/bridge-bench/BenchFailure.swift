/// Why a bench run could not finish (a target missed is not a failure).
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
