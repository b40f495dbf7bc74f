// JSON output: the document model and its one writer are Workflows' (JSON/: JSONValue,
// JSONBytes, StreamedJSONObject), whose workflows build their results' documents; the
// program prints them (Invocation.printJSON, writeJSON).
import Workflows

typealias JSONValue = Workflows.JSONValue
typealias StreamedJSONObject = Workflows.StreamedJSONObject
