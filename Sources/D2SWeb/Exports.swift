// A custom server is made from the application and renders HTML: its types come with
// `import D2SWeb`.
@_exported import D2SApplication
@_exported import D2SHTML
