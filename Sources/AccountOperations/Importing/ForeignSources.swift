public import AccountCore

/// The other systems `accounts import --from NAME` reads, assembled in one place.
public enum ForeignSources {
    /// Every name `--from` takes besides `accounts` (this store's own export), in the order
    /// the help lists them.
    public static let names = [
        StrapiSource.name, DjangoSource.name, FirebaseSource.name, SupabaseSource.name, DeviseSource.name,
        KratosSource.name, KeycloakSource.name, AspNetIdentitySource.name, RefusedRecordsSource.name,
    ]

    /// The reader for `name`, or nil for a name not in ``names``.
    /// - Throws: `configInvalid` for Firebase without its hash parameters.
    public static func source(named name: String, options: ForeignSourceOptions) throws(AccountError)
        -> (any ForeignSource)?
    {
        switch name {
        case StrapiSource.name: return StrapiSource()
        case DjangoSource.name: return DjangoSource()
        case SupabaseSource.name: return SupabaseSource()
        case DeviseSource.name: return DeviseSource(pepper: options.devisePepper)
        case KratosSource.name: return KratosSource()
        case KeycloakSource.name: return KeycloakSource()
        case AspNetIdentitySource.name: return AspNetIdentitySource()
        case RefusedRecordsSource.name: return RefusedRecordsSource()
        case FirebaseSource.name:
            guard let parameters = options.firebase else { return nil }
            return FirebaseSource(parameters: parameters)
        default: return nil
        }
    }
}
