/// The version `accounts --version` prints: this source tree's release, bumped when one is made.
public enum AccountsVersion {
    public static let current = "0.2.0"
}
