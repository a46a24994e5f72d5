extension String {
    /// Every occurrence of `token` replaced (no Foundation in the core).
    func replacingAll(_ token: String, with replacement: String) -> String {
        guard !token.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: token) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
