/// A model that breaks one or more rules; it lists every problem, not just the first.
public struct ModelValidationError: Error, Sendable, Hashable, ReportableError {
    /// The model version's name.
    public var version: String
    /// The file the model came from, if it was read from disk.
    public var file: String?
    /// Every problem found, in model order.
    public var problems: [ModelProblem]

    public init(version: String, file: String? = nil, problems: [ModelProblem]) {
        self.version = version
        self.file = file
        self.problems = problems
    }

    public var description: String {
        let place = file.map { " (\($0))" } ?? ""
        let list = problems.map { "  - \($0)" }.joined(separator: "\n")
        return
            "model version '\(version)'\(place) is invalid:\n\(list)\nFix the model in Xcode or in its builder code, then try again."
    }
}

extension ModelValidationError {
    /// Always `invalidModel` (the problems are listed in ``problems``), for tools: `{"kind": …}`
    /// in the CLI's JSON.
    public var caseName: String { "invalidModel" }

    /// The model file, if the model was read from disk.
    public var subjectPath: String? { file }
}
