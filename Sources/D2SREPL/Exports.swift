// A custom REPL is made from the application: its types come with `import D2SREPL`.
@_exported import D2SApplication
