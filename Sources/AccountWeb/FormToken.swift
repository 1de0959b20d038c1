/// The token every state-changing form carries (double submit): a random value kept in a
/// `SameSite=Strict`, `HttpOnly` cookie and repeated in a hidden field. A page on another site
/// can make the browser post a form, but cannot read the cookie to fill the field.
enum FormToken {
    /// 32 random bytes from the system's CSPRNG, as hex.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let word = generator.next()
            return String(word, radix: 16).leftPadded(to: 16)
        }.joined()
    }

    /// A well-formed token (what `make` returns), so a forged cookie is never echoed.
    static func isWellFormed(_ value: String) -> Bool {
        value.utf8.count == 64 && value.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Compares in time independent of where the two differ.
    static func matches(_ sent: String?, _ kept: String?) -> Bool {
        guard let sent, let kept, isWellFormed(kept) else { return false }
        let a = Array(sent.utf8)
        let b = Array(kept.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
