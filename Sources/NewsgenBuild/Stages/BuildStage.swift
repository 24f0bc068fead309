/// The stages of a build, in the order they run, named as `--verbose` shows them.
public enum BuildStage: String, CaseIterable, Sendable {
    case loadTemplates = "load templates"
    case fetch
    case store
    case extract = "extract full text"
    case images = "fetch images"
    case group = "group stories"
    case mergeSavedLists = "merge saved lists"
    case render
    case write
    case validate
    case publish

    /// Its place in the build, from 1.
    var number: Int { (Self.allCases.firstIndex(of: self) ?? 0) + 1 }
}
