// Fails fast when npm scripts run on a Node older than the pinned LTS (the `node` devDependency provides 24).
const major = Number(process.versions.node.split(".")[0]);
if (major < 24) {
  console.error(
    `Node ${process.versions.node} is too old: this project needs Node 24 LTS. Run \`npm install\` so npm scripts use node_modules/.bin/node.`,
  );
  process.exit(1);
}
