import Foundation
import StepwiseMapping

extension TextFormat {
    /// A mapping model as `plan` and `diff` list it: the file it came from and how it was bound
    /// to its versions (`Migration2to3.xcmappingmodel, bound by model paths`), and the identical
    /// copies that don't run; its name when it came from no file (inferred, or written in code).
    static func mappingModel(_ model: MappingModel) -> String {
        guard let origin = model.origin else { return model.name }
        let copies =
            origin.identicalCopies.isEmpty
            ? "" : "; also found identical at \(origin.identicalCopies.joined(separator: ", ")), run once"
        return "\(URL(fileURLWithPath: origin.path).lastPathComponent), bound by \(origin.binding)\(copies)"
    }
}
