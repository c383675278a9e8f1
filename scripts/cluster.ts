// npm run cluster:up | cluster:down. The last line of `up` is KUBECONFIG=<path>,
// which scripts and people can eval or copy.
import { down, up } from "./cluster/cluster.ts";

const command = process.argv[2];
try {
  if (command === "up") {
    const { kubeconfig, started } = await up();
    console.error(started ? "test cluster started" : "test cluster already running; reusing it");
    console.log(`KUBECONFIG=${kubeconfig}`);
  } else if (command === "down") {
    await down();
    console.error("test cluster stopped");
  } else {
    console.error("usage: node scripts/cluster.ts up|down");
    process.exit(2);
  }
} catch (error) {
  console.error(`cluster:${command}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
