import Foundation

let d = try PropertyListSerialization.data(
    fromPropertyList: ["a": Data([1, 2, 3]), "n": 3] as [String: Any], format: .binary, options: 0)
print(d.count, String(decoding: d.prefix(8), as: UTF8.self))
let back = try PropertyListSerialization.propertyList(from: d, options: [], format: nil)
print(back)
#if canImport(FoundationXML)
    import FoundationXML
    print("FoundationXML")
#endif
