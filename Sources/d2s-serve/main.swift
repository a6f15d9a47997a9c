import D2SWeb

await D2SServeCommand.main(plugins: [])
