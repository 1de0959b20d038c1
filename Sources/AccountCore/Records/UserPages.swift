/// Every user of a repository, a page at a time in email order: the one loop that walks a whole
/// store (check-ups, exports, digests and migrations all use it).
///
/// Each page is one `users(after:limit:)` call that starts after the last email of the page
/// before, so a walk holds no transaction open and costs one page of memory; users added or
/// removed behind the walk's position during it are not seen.
public struct UserPages: AsyncSequence, Sendable {
    public typealias Element = [UserRecord]

    let repository: any UserRepository
    let size: Int

    public func makeAsyncIterator() -> Iterator {
        Iterator(repository: repository, size: size)
    }

    /// Fetches the next page on demand.
    public struct Iterator: AsyncIteratorProtocol {
        let repository: any UserRepository
        let size: Int
        var after: String?
        var finished = false

        init(repository: any UserRepository, size: Int) {
            self.repository = repository
            self.size = size
        }

        /// The next non-empty page, or `nil` after the last one.
        public mutating func next() async throws -> [UserRecord]? {
            guard !finished else { return nil }
            let page = try await repository.users(after: after, limit: size)
            finished = page.count < size
            after = page.last?.email
            return page.isEmpty ? nil : page
        }
    }
}

extension UserRepository {
    /// Every user, `size` at a time, in email order.
    public func userPages(size: Int = 500) -> UserPages {
        UserPages(repository: self, size: max(1, size))
    }
}
