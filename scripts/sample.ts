// `npm run sample -- [directory] [version]`: writes the small brXM-like distribution `npm run demo` deploys
// (bin/, conf/, shared/, webapps/ with a real site.war) into a directory, its version page (version.txt, holding
// `version`) inside the site webapp as the README's build writes it, so a by-hand run has a real distribution.
import { existsSync, readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { makeDistributionTree } from './lib/sample-tree.js'

const [where = 'sample-distribution', version = `sample-${new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '')}`] = process.argv.slice(2)
// npm runs scripts in the package's folder: a relative directory is the caller's (INIT_CWD), as npm run action takes it.
const dir = resolve(process.env.INIT_CWD ?? process.cwd(), where)
if (existsSync(dir) && readdirSync(dir).length > 0) {
  console.error(`${dir} is not empty: name a new or empty directory (npm run sample -- <directory>).`)
  process.exit(2)
}
makeDistributionTree(dir, undefined, { 'version.txt': `${version}\n` })
console.log(`A sample distribution in ${dir}; its site serves version.txt with '${version}'.`)
console.log(`Deploy it: npm run action -- api-url=http://127.0.0.1:4080 username=deployer password=emulator-password \\`)
console.log(`  distribution=${where} environment=development health-url=http://127.0.0.1:4080/sites/development/version.txt health-expect=${version}`)
