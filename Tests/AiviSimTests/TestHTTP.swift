/// One request on a fresh raw connection, answered in full.
enum TestHTTP {
    static func request(port: Int, _ method: String, _ path: String,
                        headers: [(String, String)] = [], body: String = "") throws -> TestResponse {
        let connection = try RawConnection(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "PATCH" || method == "POST" { head += "Content-Length: \(body.utf8.count)\r\n" }
        connection.send(head + "\r\n" + body)
        guard let response = connection.readResponse() else { throw TestFailure("no response to \(method) \(path)") }
        return response
    }
}
