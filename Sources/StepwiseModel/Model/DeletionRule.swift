/// What happens to a relationship's destination when its source is deleted.
///
/// The raw value is the name Xcode writes in `deletionRule`.
public enum DeletionRule: String, Sendable, Hashable, CaseIterable, Codable {
    case nullify = "Nullify"
    case cascade = "Cascade"
    case deny = "Deny"
    case noAction = "No Action"
}
