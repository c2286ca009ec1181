// Code written for Foundation's coders: the script compiles it as it is, then with LenientJSONDecoder and
// LenientJSONEncoder put in, and requires the same diagnostics from both.
import Foundation

final class Session { var token = "" }
let key = CodingUserInfoKey(rawValue: "session")!
let settings: [CodingUserInfoKey: Any] = [key: Session()]

let decoder = JSONDecoder()
decoder.userInfo = settings
decoder.userInfo[key] = Session()
decoder.dateDecodingStrategy = .iso8601
decoder.keyDecodingStrategy = .convertFromSnakeCase
decoder.allowsJSON5 = true
decoder.assumesTopLevelDictionary = true
let info: [CodingUserInfoKey: any Sendable] = decoder.userInfo

let encoder = JSONEncoder()
encoder.userInfo = settings
encoder.userInfo[key] = Session()
encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
encoder.dateEncodingStrategy = .secondsSince1970
print(info.count, encoder.userInfo.count)
