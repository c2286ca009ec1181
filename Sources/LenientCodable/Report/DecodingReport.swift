// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// Everything a lenient decode forgave, value by value.
///
/// ``LenientJSONDecoder/decodeWithReport(_:from:)-(_,Data)`` returns it beside the value. Clean
/// input gives an empty report; each coerced, defaulted or dropped value, each key found only by
/// a fallback, adds one ``DecodingIssue`` with its path.
///
/// ```swift
/// let (books, report) = try LenientJSONDecoder().decodeWithReport([Book].self, from: data)
/// for issue in report.issues {
///     logger.warning("\(issue.path): \(issue.message)")   // "[2].page: Coerced string \"3\" to Int 3."
/// }
/// ```
///
/// Use it to log what a server sends wrongly, or to watch an API drift in production.
public struct DecodingReport: Sendable, Hashable, Codable {
    /// The forgiven values, in the order the decoder met them.
    public var issues: [DecodingIssue]

    /// Creates a report.
    ///
    /// - Parameter issues: The issues.
    public init(issues: [DecodingIssue] = []) { self.issues = issues }

    /// Whether nothing was forgiven.
    public var isEmpty: Bool { issues.isEmpty }

    /// The issues of one kind.
    ///
    /// - Parameter kind: The kind to keep.
    /// - Returns: The issues of that kind, in order.
    public func issues(ofKind kind: DecodingIssue.Kind) -> [DecodingIssue] {
        issues.filter { $0.kind == kind }
    }
}

extension DecodingReport: CustomStringConvertible {
    /// One line per issue, as each ``DecodingIssue`` prints itself, or `No issues.`
    public var description: String {
        guard !issues.isEmpty else { return "No issues." }
        return issues.map(\.description).joined(separator: "\n")
    }
}

/// One value that a lenient decode forgave.
///
/// It prints as one line — path, JSON path in parentheses, kind and message — and is `Codable`,
/// for logs and telemetry:
///
/// ```swift
/// print(issue)   // books[2].page (books[2].p): coerced: Coerced string "412" to Int 412.
/// let line = try JSONEncoder().encode(issue)
/// ```
public struct DecodingIssue: Sendable {
    /// What the decoder did.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// A value of another JSON type was converted (`"3"` to `3`).
        case coerced
        /// A missing, `null` or unusable value was replaced by the property's default.
        case defaulted
        /// An element of an array, set or dictionary that could not be decoded was left out.
        case droppedElement
        /// A value was refused by its type's `didDecode` hook and left out or set to `nil`.
        case rejected
        /// A property's value was found under a fallback key or by loose key matching (a `null` found
        /// there is no value found, and is reported only as what it became).
        case keyFallback
        /// The JSON has a key that no property reads and no ``UnknownKeys`` property keeps (only
        /// when the options ask for it).
        case unknownKey
    }

    /// Where the value is, as a path from the top: `books[2].page`, or `[1]` for an element of
    /// a top-level array. The keys are the model's coding keys.
    ///
    /// An issue the decoder records keeps its paths as the decoder's shared steps and writes
    /// them out when they are read, so that a report of many issues deep in a document costs
    /// one step an issue, not the depth of each path.
    public var path: String {
        get { storedPath.text }
        set { storedPath = ReportPath(newValue) }
    }
    /// Where the value was in the JSON, as a path from the top in the JSON's own keys: for a
    /// property mapped to `"ext.desc"` of the third book, `books[2].ext.desc`. For a missing
    /// value, the first key the decoder looked for; for a value found under a fallback key, that
    /// key. Inside JSON text held in a string, the path goes on from the string; inside JSON that
    /// a hook or transform returned, it goes on from the value the hook was given, in the keys of
    /// the JSON the hook returned.
    public var jsonPath: String {
        get { storedJSONPath?.text ?? path }
        set { storedJSONPath = ReportPath(newValue) }
    }
    /// What the decoder did.
    public var kind: Kind
    /// A sentence naming what was found and what it became: `Coerced string "3" to Int 3.`
    public var message: String
    /// The JSON value that was found, when there was one.
    public var found: JSONValue?

    private var storedPath: ReportPath
    /// `nil` when the JSON path is the path.
    private var storedJSONPath: ReportPath?

    /// Whether the issue's paths are written as `other`'s are, compared step by step where they
    /// can be (``ReportPath/isSame(as:)``).
    func hasSamePaths(as other: DecodingIssue) -> Bool {
        guard storedPath.isSame(as: other.storedPath) else { return false }
        switch (storedJSONPath, other.storedJSONPath) {
        case (let left?, let right?): return left.isSame(as: right)
        case (nil, nil): return true
        default: return jsonPath == other.jsonPath
        }
    }
    /// Whether the issue is about the same node as `other`, for two values the decoder found in
    /// the document's own tree: two nodes are two places in the JSON, told apart without writing
    /// out their paths, which cost their depth. `nil` otherwise (a value inside JSON text is at
    /// its string's place, which only the written paths say).
    func isAtSameNode(as other: DecodingIssue) -> Bool? {
        guard let origin, let otherOrigin = other.origin, origin.tree == otherOrigin.tree, origin.within.isEmpty,
            otherOrigin.within.isEmpty
        else { return nil }
        return origin.node == otherOrigin.node && origin.missingKey == otherOrigin.missingKey
    }
    /// Where the decoder found the value, when it knows: what tells a value forgiven twice (a
    /// model that read it twice) from two values (``ReportCollector/report``).
    var origin: IssueOrigin?
    /// For a fallback's issue that absorbed what was then done to the value: the fallback's own
    /// origin, the object and key it was found for (``ReportCollector/report``).
    var absorbedFallback: IssueOrigin?

    /// Creates an issue.
    ///
    /// ```swift
    /// let issue = DecodingIssue(path: "page", jsonPath: "p", kind: .coerced, message: "Coerced string \"412\" to Int 412.")
    /// ```
    ///
    /// - Parameters:
    ///   - path: The value's path.
    ///   - jsonPath: Where the value was in the JSON; `nil` (the default) means `path`.
    ///   - kind: What the decoder did.
    ///   - message: What was found and what it became.
    ///   - found: The JSON value found, if any.
    public init(path: String, jsonPath: String? = nil, kind: Kind, message: String, found: JSONValue? = nil) {
        storedPath = ReportPath(path)
        storedJSONPath = jsonPath.map(ReportPath.init)
        self.kind = kind
        self.message = message
        self.found = found
    }

    /// An issue the decoder records, with its paths as the decoder's steps.
    init(
        path: CodingPathNode, jsonPath: JSONPathStep?, kind: Kind, message: String, found: JSONValue?,
        origin: IssueOrigin?
    ) {
        storedPath = ReportPath(path)
        storedJSONPath = jsonPath.map(ReportPath.init)
        self.kind = kind
        self.message = message
        self.found = found
        self.origin = origin
    }
}

extension DecodingIssue: Hashable {
    /// Whether two issues say the same: the same paths, kind, message and value found.
    ///
    /// - Parameters:
    ///   - lhs: An issue.
    ///   - rhs: Another issue.
    /// - Returns: `true` when they are equal.
    public static func == (lhs: DecodingIssue, rhs: DecodingIssue) -> Bool {
        lhs.kind == rhs.kind && lhs.message == rhs.message && lhs.found == rhs.found && lhs.path == rhs.path
            && lhs.jsonPath == rhs.jsonPath
    }

    /// Hashes what ``==(_:_:)`` compares.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(message)
        hasher.combine(found)
        hasher.combine(path)
        hasher.combine(jsonPath)
    }
}

/// A path of the report: text, or the decoder's linked steps, written out each time it is read.
///
/// `@unchecked Sendable`: a `CodingPathNode` is not `Sendable` because its keys are `any CodingKey`
/// and its boxes are classes. What makes sharing it safe: a node and every box it links to are
/// never changed after they are made (a box's `node` is a `let`; its other fields, which the
/// decoder does change, are never read here), and reading a coding key's `stringValue` and
/// `intValue` changes nothing. The issue retains the boxes, so they live as long as it does.
/// ``ConcurrencyTests`` reads one report's paths from many tasks at once under ThreadSanitizer.
struct ReportPath: @unchecked Sendable {
    private enum Storage {
        case text(String)
        case codingPath(CodingPathNode)
        case jsonPath(JSONPathStep)
    }

    private let storage: Storage

    init(_ text: String) { storage = .text(text) }
    init(_ path: CodingPathNode) { storage = .codingPath(path) }
    init(_ path: JSONPathStep) { storage = .jsonPath(path) }

    /// Whether two paths are written the same, without writing them out where their steps show
    /// it: the same keys up to a shared step (the container's path box, the object's JSON path),
    /// as an issue and the fallback it merges into are. Written out otherwise: a report of issues
    /// deep in a document would write two paths of its depth for every one.
    func isSame(as other: ReportPath) -> Bool {
        switch (storage, other.storage) {
        case (.codingPath(var left), .codingPath(var right)):
            while true {
                switch (left, right) {
                case (.root, .root):
                    return true
                case (.key(let leftKey, let leftParent), .key(let rightKey, let rightParent)):
                    guard leftKey.stringValue == rightKey.stringValue, leftKey.intValue == rightKey.intValue else {
                        return text == other.text
                    }
                    if leftParent === rightParent { return true }
                    (left, right) = (leftParent.node, rightParent.node)
                case (.index(let leftIndex, let leftParent), .index(let rightIndex, let rightParent)):
                    guard leftIndex == rightIndex else { return text == other.text }
                    if leftParent === rightParent { return true }
                    (left, right) = (leftParent.node, rightParent.node)
                default:
                    return text == other.text
                }
            }
        case (.jsonPath(var left), .jsonPath(var right)):
            while left !== right {
                guard left.step == right.step, let leftParent = left.parent, let rightParent = right.parent else {
                    return text == other.text
                }
                (left, right) = (leftParent, rightParent)
            }
            return true
        default:
            return text == other.text
        }
    }

    var text: String {
        switch storage {
        case .text(let text): text
        case .codingPath(let path): path.reportPath
        case .jsonPath(let path): path.text
        }
    }

}

extension DecodingIssue: CustomStringConvertible {
    /// The issue on one line: `books[2].page (books[2].p): coerced: Coerced string "412" to Int 412.`
    /// The top-level value's empty path prints as `<root>`.
    public var description: String {
        let path = path.isEmpty ? "<root>" : path
        let jsonPath = jsonPath.isEmpty ? "<root>" : jsonPath
        return "\(path) (\(jsonPath)): \(kind): \(message)"
    }
}

extension DecodingIssue: Codable {
    private enum CodingKeys: String, CodingKey {
        case path, jsonPath, kind, message, found
    }

    /// Reads an issue as ``encode(to:)`` writes it; a missing `jsonPath` (a log written before it
    /// existed) is the `path`.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when `path`, `kind` or `message` is missing or invalid.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            path: try container.decode(String.self, forKey: .path),
            jsonPath: try container.decodeIfPresent(String.self, forKey: .jsonPath),
            kind: try container.decode(Kind.self, forKey: .kind),
            message: try container.decode(String.self, forKey: .message),
            found: try container.decodeIfPresent(JSONValue.self, forKey: .found))
    }

    /// Writes the issue as an object: `path`, `jsonPath`, `kind` (its raw value), `message`, and
    /// `found` when there is one.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(jsonPath, forKey: .jsonPath)
        try container.encode(kind, forKey: .kind)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(found, forKey: .found)
    }
}

extension DecodingIssue {
    /// Takes in a later step of forgiving the same value: its message follows (`…; then
    /// coerced …`), and a default, which loses the value found, makes the issue `defaulted`.
    mutating func absorb(_ step: DecodingIssue) {
        if step.kind == .defaulted { kind = .defaulted }
        let then = step.message.prefix(1).lowercased() + step.message.dropFirst()
        message = "\(message.dropLast(message.hasSuffix(".") ? 1 : 0)); then \(then)"
    }
}

/// Collects issues during one decode. Only created when a report is asked for, or when the
/// decode needs to know whether something was forgiven.
final class ReportCollector {
    /// Exempt from the dynamic exclusivity check, which every element of an array paid when a
    /// report was collected: it is read and changed only by single calls (`count`, `append`,
    /// `removeSubrange`) that run no other code, so accesses cannot overlap.
    @exclusivity(unchecked) var issues: [DecodingIssue] = []

    func record(
        _ kind: DecodingIssue.Kind, path: CodingPathNode, jsonPath: JSONPathStep?, message: String,
        found: JSONValue? = nil, origin: IssueOrigin? = nil
    ) {
        let issue = DecodingIssue(
            path: path, jsonPath: jsonPath, kind: kind, message: message, found: found, origin: origin)
        if !mergeIntoFallback(issue, before: issues.count) { issues.append(issue) }
    }

    /// Puts an issue at `position` (a wrap or parse, recorded after what it contains), or into the
    /// fallback's issue just before it.
    func insert(_ issue: DecodingIssue, at position: Int) {
        if !mergeIntoFallback(issue, before: position) { issues.insert(issue, at: position) }
    }

    /// A value found under a fallback key, then coerced, defaulted, wrapped or parsed, is one
    /// value forgiven in two steps: one issue that says both. Merges `issue` into the fallback's
    /// issue at `position - 1` when it is about the same value.
    private func mergeIntoFallback(_ issue: DecodingIssue, before position: Int) -> Bool {
        guard issue.kind == .coerced || issue.kind == .defaulted, position > 0, position <= issues.count,
            issues[position - 1].kind == .keyFallback
        else { return false }
        let fallback = issues[position - 1]
        guard fallback.hasSamePaths(as: issue) else { return false }
        var merged = fallback
        merged.absorb(issue)
        if merged.found == nil { merged.found = issue.found }
        // Known by the value it forgave: a model that reads the value again as another type
        // (found there, then coerced) keeps both issues, the second saying more. The fallback's
        // issue alone, for another read of the same member (`contains` first), says less than
        // this one and is left out of the report.
        if let origin = issue.origin {
            if merged.absorbedFallback == nil { merged.absorbedFallback = fallback.origin }
            merged.origin = origin
        }
        issues[position - 1] = merged
        return true
    }

    /// The report of the decode: each forgiven value once. A model that reads the same value
    /// twice — the same key twice, a discriminator's container and then the payload's, a super
    /// decoder for a key twice, as `Int` and then as `Double` — has the decoder forgive it twice;
    /// the report names it once, as it was forgiven first.
    var report: DecodingReport {
        guard issues.count > 1 else { return DecodingReport(issues: issues) }
        var seen = Set<IssueIdentity>(minimumCapacity: issues.count)
        // A member found under another key and read twice, once as it was (`contains`, or as a
        // `String`) and once changed on top (parsed, coerced): the second issue says all of it.
        for issue in issues {
            if let fallback = issue.absorbedFallback { seen.insert(IssueIdentity(fallbackAlone: fallback)) }
        }
        guard let first = issues.indices.first(where: { !seen.insert(IssueIdentity(issues[$0])).inserted }) else {
            return DecodingReport(issues: issues)
        }
        var unique = Array(issues[..<first])
        for issue in issues[(first + 1)...] where seen.insert(IssueIdentity(issue)).inserted {
            unique.append(issue)
        }
        return DecodingReport(issues: unique)
    }

    /// What makes two issues the same: the same kind of forgiveness of the same value — by the
    /// node the decoder found it at (inside JSON text or a hook's JSON, the node it was built for
    /// and the node inside: ``IssueOrigin``), or for a missing value the object and key it looked
    /// in (a value read as `Int` and again as `Double` is one value coerced; a model that decodes
    /// JSON text twice, as a list's wrapped element and as itself, forgave one value; two
    /// properties transformed out of one member forgave two). Issues recorded without an origin
    /// are told apart by where the value is in the JSON and the message.
    private struct IssueIdentity: Hashable {
        let origin: IssueOrigin?
        let written: [String]
        let kind: DecodingIssue.Kind

        /// The identity of a fallback's issue that nothing was absorbed into.
        init(fallbackAlone origin: IssueOrigin) {
            self.origin = origin
            written = []
            kind = .keyFallback
        }

        init(_ issue: DecodingIssue) {
            origin = issue.origin
            written = issue.origin == nil ? [issue.jsonPath, issue.message] : []
            kind = issue.kind
        }
    }
}

/// Where the decoder found a forgiven value: a node of a parsed tree (the tree's storage names
/// the tree), or for a missing value the object it looked in and the key.
struct IssueOrigin: Hashable {
    let tree: ObjectIdentifier
    let node: Int
    let missingKey: String?
    /// For a value in a tree the decode built for the node above (JSON text, a hook's or a
    /// transform's JSON): the steps down into such trees, one per tree.
    var within: [Step] = []

    /// A step into a tree built for a node: what built it, and the node inside.
    struct Step: Hashable {
        /// `nil` for JSON text in a string; the hook's type or the transform's property otherwise.
        let producer: String?
        let node: Int
        let missingKey: String?
    }

    init(tree: ObjectIdentifier, node: Int, missingKey: String?) {
        self.tree = tree
        self.node = node
        self.missingKey = missingKey
    }
}

extension CodingKey {
    /// Whether the report writes the key as an index (`[2]`): an array's element, whose key is
    /// `Index 2` as Foundation names it. A dictionary's key that is a number (`[Int: V]`) is a
    /// member of an object in the JSON, and is written as a key (`byID.4`), as `"04"` is.
    fileprivate var isReportIndex: Bool {
        intValue != nil && stringValue.hasPrefix("Index ")
    }
}

extension CodingPathNode {
    /// The path as the report writes it: `books[2].page`.
    var reportPath: String {
        var text = ""
        for key in path {
            if key.isReportIndex, let index = key.intValue {
                text += "[\(index)]"
            } else {
                JSONPathIndex.append(JSONPathIndex.keyStep(key.stringValue), to: &text)
            }
        }
        return text
    }
}
