// The soak's load generator, run as its own process: autocannon at a fixed overall rate, each
// connection cycling through a day's mix of pages (each with its account's session). Prints
// autocannon's result as JSON. Usage: node bench/lib/soak-load.mjs '<json options>'
import autocannon from "autocannon";

const { url, rate, seconds, connections, requests } = JSON.parse(process.argv[2]);
const result = await autocannon({ url, overallRate: rate, duration: seconds, connections, requests, timeout: 10 });
process.stdout.write(JSON.stringify(result));
