import CCurl

/// A libcurl failure, with curl's own words. Never carries a header or a body,
/// so the API token cannot leak into a log through it.
public struct CurlError: Error, Sendable, Equatable, CustomStringConvertible {
    public let operation: String
    public let code: Int32
    public let message: String

    init(_ operation: String, _ code: CURLcode) {
        self.operation = operation
        self.code = Int32(code.rawValue)
        self.message = String(cString: curl_easy_strerror(code))
    }

    init(_ operation: String, multiCode code: CURLMcode) {
        self.operation = operation
        self.code = Int32(code.rawValue)
        self.message = String(cString: curl_multi_strerror(code))
    }

    /// `error`'s code and words under another operation's name (a connection's
    /// failure told as the request's).
    init(_ operation: String, as error: CurlError) {
        self.operation = operation
        self.code = error.code
        self.message = error.message
    }

    init(_ operation: String, message: String) {
        self.operation = operation
        self.code = -1
        self.message = message
    }

    public var description: String { "\(operation): \(message)" }
}
