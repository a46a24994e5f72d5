import Foundation

/// A throwaway certificate authority and a server certificate for 127.0.0.1 /
/// localhost, made with the `openssl` command in a temp dir.
public struct TestCertificates: Sendable {
    public let caFile: String
    public let certificateFile: String
    public let keyFile: String

    /// The names a server certificate carries by default: the loopback addresses' names.
    public static let loopbackNames = ["IP:127.0.0.1", "DNS:localhost"]

    /// Creates a CA and a server certificate signed by it for `serverNames` (its
    /// subjectAltName entries), in `directory`.
    public init(directory: TemporaryDirectory, name: String = "tls", serverNames: [String] = loopbackNames) throws {
        let prefix = directory.file(name)
        caFile = "\(prefix)-ca.crt"
        certificateFile = "\(prefix)-server.crt"
        keyFile = "\(prefix)-server.key"
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.openssl(["req", "-x509"] + curve + [
            "-keyout", "\(prefix)-ca.key", "-out", caFile, "-days", "2", "-subj", "/CN=switchboard test CA",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ], directory: directory)
        try Self.openssl(["req"] + curve + [
            "-keyout", keyFile, "-out", "\(prefix)-server.csr", "-subj", "/CN=\(serverNames.first.map { String($0.drop { $0 != ":" }.dropFirst()) } ?? "server")",
        ], directory: directory)
        try "subjectAltName=\(serverNames.joined(separator: ","))\n".write(toFile: "\(prefix)-ext.cnf", atomically: true, encoding: .utf8)
        try Self.openssl([
            "x509", "-req", "-in", "\(prefix)-server.csr", "-CA", caFile, "-CAkey", "\(prefix)-ca.key",
            "-CAcreateserial", "-out", certificateFile, "-days", "2", "-extfile", "\(prefix)-ext.cnf",
        ], directory: directory)
        // A broker started as root drops to its own user: a throwaway test key may be readable.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile)
    }

    private static func openssl(_ arguments: [String], directory: TemporaryDirectory) throws {
        let process = try ChildProcess(executable: "/usr/bin/openssl", arguments: arguments, directory: directory.path, name: "openssl-\(UUID().uuidString)")
        guard process.waitForExit(timeoutSeconds: 20) == 0 else {
            process.stop()
            throw TestSupportError("openssl \(arguments.first ?? "") failed: \(process.stderr)")
        }
    }
}
