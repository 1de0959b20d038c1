package import AccountCore

extension UserRecord {
    /// This record without its number: for comparing a stored user with the record it was
    /// made from, where the store gave the number.
    package var unnumbered: UserRecord {
        var record = self
        record.number = nil
        return record
    }
}
