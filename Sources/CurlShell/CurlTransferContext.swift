import CCurl

/// The Swift side of one libcurl transfer: what to do with header lines, body bytes,
/// and whether to abort. Used only on the thread running the transfer.
final class CurlTransferContext {
    /// Called with each header line (without CRLF); the empty line ends a header block.
    var onHeaderLine: (String) -> Void = { _ in }
    /// Called with body bytes; return false to abort the transfer.
    var onBody: (UnsafeRawBufferPointer) -> Bool = { _ in true }
    /// Polled about once a second and on progress; return true to abort the transfer.
    var shouldAbort: () -> Bool = { false }

    /// Installs the C callbacks on `easy`, pointing at this context.
    func install(on easy: CurlEasy) throws(HTTPClientError) {
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        try easy.setWriteFunction(CURLOPT_WRITEFUNCTION) { bytes, size, count, userdata in
            guard let userdata else { return 0 }
            let context = Unmanaged<CurlTransferContext>.fromOpaque(userdata).takeUnretainedValue()
            let length = size * count
            let buffer = UnsafeRawBufferPointer(start: bytes, count: length)
            return context.onBody(buffer) ? length : 0
        }
        try easy.set(CURLOPT_WRITEDATA, pointer: userdata)
        try easy.setWriteFunction(CURLOPT_HEADERFUNCTION) { bytes, size, count, userdata in
            guard let userdata else { return 0 }
            let context = Unmanaged<CurlTransferContext>.fromOpaque(userdata).takeUnretainedValue()
            let length = size * count
            let buffer = UnsafeRawBufferPointer(start: bytes, count: length)
            context.onHeaderLine(String(decoding: buffer, as: UTF8.self).trimmingSpaces)
            return length
        }
        try easy.set(CURLOPT_HEADERDATA, pointer: userdata)
        try easy.setProgressFunction { userdata, _, _, _, _ in
            guard let userdata else { return 1 }
            let context = Unmanaged<CurlTransferContext>.fromOpaque(userdata).takeUnretainedValue()
            return context.shouldAbort() ? 1 : 0
        }
        try easy.set(CURLOPT_XFERINFODATA, pointer: userdata)
        try easy.set(CURLOPT_NOPROGRESS, 0)
    }
}
