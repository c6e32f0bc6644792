/// A failure the command found itself, before calling the library: printed as
/// `Error: <message>` on standard error, exit status ``status`` (1 unless said), without the usage text that a
/// `ValidationError` (a malformed argument) brings.
struct CommandFailure: Error, CustomStringConvertible {
    /// What went wrong and what to do about it.
    var description: String
    /// The exit status it gets (``CommandExitStatus``).
    var status: CommandExitStatus

    init(_ message: String, status: CommandExitStatus = .failure) {
        description = message
        self.status = status
    }
}
