extension ErrorDetail {
    /// This detail with every mention of `privateName` in its text clauses read as `shown`.
    public func renamingPath(_ privateName: String, to shown: String) -> ErrorDetail {
        ErrorDetail(
            clauses.map { clause in
                if case .text(let text) = clause { .text(text.replacing(privateName, with: shown)) } else { clause }
            })
    }
}

extension AccountError {
    /// This error as it reads for `shown` where it named `privateName`: a store built under a
    /// private name (`accounts.sqlite.init-…`) and linked into place reports its failures as
    /// the store's own, never with a name the operator cannot find afterwards.
    public func renamingPath(_ privateName: String, to shown: String) -> AccountError {
        switch self {
        case .storeCorrupted(let detail): .storeCorrupted(detail: detail.renamingPath(privateName, to: shown))
        case .storeBusy(let detail): .storeBusy(detail: detail.renamingPath(privateName, to: shown))
        case .storeIO(let detail): .storeIO(detail: detail.renamingPath(privateName, to: shown))
        case .storeNotFound(let location): .storeNotFound(location: location.replacing(privateName, with: shown))
        case .storeKindMismatch(let expected, let found):
            .storeKindMismatch(expected: expected, found: found.replacing(privateName, with: shown))
        default: self
        }
    }
}
