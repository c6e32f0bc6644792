/// A failure the command found itself, before calling the library: printed as
/// `Error: <message>` on standard error, exit status 1, without the usage text that a
/// `ValidationError` (a malformed argument) brings.
struct CommandFailure: Error, CustomStringConvertible {
    /// What went wrong and what to do about it.
    var description: String

    init(_ message: String) {
        description = message
    }
}
