import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import Testing

/// The keyed archives Stepwise writes for Transformable attributes: the same bytes for the same
/// value, readable by `NSKeyedUnarchiver`, and read back by Stepwise itself.
@Suite("Transformable archives")
struct TransformableArchiveTests {
    static let values: [TransformableValue] = [
        [],
        ["red", "green", "blue"],
        ["size": 3, "ratio": 0.5, "shown": true, "name": "Zoë", "tags": ["a", "b"], "none": .null],
        [.date(Date(timeIntervalSinceReferenceDate: 786_000_000.25)), .data(Data([0, 1, 2, 255]))],
        [
            .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()),
            .url(URL(string: "https://example.com/players/ada?x=1") ?? URL(fileURLWithPath: "/")),
        ],
        .string("a lone string"),
        .integer(-42),
        [["nested": [1, 2, ["deeper": "yes"]]], [:], []],
    ]

    @Test(arguments: values)
    func archivingTheSameValueTwiceGivesTheSameBytes(value: TransformableValue) {
        #expect(value.keyedArchive() == value.keyedArchive())
    }

    @Test(arguments: values)
    func theArchiveReadsBackAsTheValue(value: TransformableValue) throws {
        #expect(try TransformableValue(keyedArchive: value.keyedArchive()) == value)
    }

    @Test(arguments: values)
    func nsKeyedUnarchiverDecodesTheArchiveToTheValue(value: TransformableValue) throws {
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: value.keyedArchive())
        unarchiver.requiresSecureCoding = true
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        let classes: [AnyClass] = [
            NSArray.self, NSDictionary.self, NSString.self, NSNumber.self, NSDate.self, NSData.self, NSUUID.self,
            NSURL.self, NSNull.self,
        ]
        let decoded = unarchiver.decodeObject(of: classes, forKey: NSKeyedArchiveRootObjectKey) as? NSObject
        #expect(unarchiver.error == nil)
        #expect(decoded?.isEqual(value.foundationObject) == true)
    }

    /// Bytes fixed once: a change of order anywhere (keys, objects, classes) would break them,
    /// as hash order did on each run of `NSKeyedArchiver` on Linux.
    @Test func theBytesAreFixedAcrossRuns() {
        #expect(TransformableValue.array([]).keyedArchive().hexString == Self.emptyArrayArchive)
        #expect(
            TransformableValue.dictionary(["b": 2, "a": "x", "c": [true]]).keyedArchive().hexString
                == Self.dictionaryArchive)
    }

    static let emptyArrayArchive =
        "62706C6973743030D401020304050613165924617263686976657258246F626A656374735424746F7058247665727369"
        + "6F6E5F100F4E534B657965644172636869766572A307080D55246E756C6CD2090A0B0C5624636C6173735A4E532E6F62"
        + "6A656374738002A0D20E0F10115824636C61737365735A24636C6173736E616D65A21112574E534172726179584E534F"
        + "626A656374D1141554726F6F74800112000186A008111B24293244484E535A6567686D7681848C95989D9F0000000000"
        + "0001010000000000000017000000000000000000000000000000A4"
    static let dictionaryArchive =
        "62706C6973743030D4010203040506282B5924617263686976657258246F626A656374735424746F7058247665727369"
        + "6F6E5F100F4E534B657965644172636869766572AB070815161718191A1E1F2555246E756C6CD3090A0B0C0D11562463"
        + "6C617373574E532E6B6579735A4E532E6F626A65637473800AA30E0F10800280038004A3121314800580068007516151"
        + "62516351781002D2090B1B1C8009A11D800809D2202122235824636C61737365735A24636C6173736E616D65A2232457"
        + "4E534172726179584E534F626A656374D220212627A227245C4E5344696374696F6E617279D1292A54726F6F74800112"
        + "000186A008111B2429324450565D646C77797D7F818387898B8D8F919395979C9EA0A2A3A8B1BCBFC7D0D5D8E5E8EDEF"
        + "0000000000000101000000000000002C000000000000000000000000000000F4"

    /// An empty `NSMutableDictionary` archived by Apple's `NSKeyedArchiver`, as Apptentive's
    /// store (corpus `apptentive-ios`, `ATDataModelv4`, `ZATRECORD.ZDICTIONARYDATA`) holds it.
    @Test func anArchiveWrittenByApplesArchiverReadsBack() throws {
        let apple = try #require(Data(hexString: Self.appleEmptyMutableDictionary))
        #expect(try TransformableValue(keyedArchive: apple) == .dictionary([:]))
        #expect(TransformableValue.fromDatabaseValue(apple.databaseValue) == .dictionary([:]))
    }

    static let appleEmptyMutableDictionary =
        "62706C6973743030D4010203040508191A5424746F7058246F626A65637473582476657273696F6E59246172636869766572D1060754726F6F748001A3090A1155246E756C6CD30B0C0D0E0F105A4E532E6F626A656374735624636C617373574E532E6B657973A08002A0D2121314185824636C61737365735A24636C6173736E616D65A31516175F10134E534D757461626C6544696374696F6E6172795C4E5344696374696F6E617279584E534F626A6563745F10134E534D757461626C6544696374696F6E61727912000186A05F100F4E534B6579656441726368697665720811161F2832353A3C40464D585F67686A6B707984889EABB4CACF0000000000000101000000000000001B000000000000000000000000000000E1"

    @Test func bytesThatAreNotAnArchiveAreRefused() {
        #expect(throws: BinaryPropertyList.FormatError.self) {
            try TransformableValue(keyedArchive: Data("not an archive".utf8))
        }
        #expect(TransformableValue.fromDatabaseValue(Data([1, 2, 3]).databaseValue) == nil)
    }
}

extension Data {
    var hexString: String { map { String(format: "%02X", $0) }.joined() }

    init?(hexString: String) {
        var bytes: [UInt8] = []
        var index = hexString.startIndex
        while index < hexString.endIndex {
            let next = hexString.index(index, offsetBy: 2, limitedBy: hexString.endIndex) ?? hexString.endIndex
            guard let byte = UInt8(hexString[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
