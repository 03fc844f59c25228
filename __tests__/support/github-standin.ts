export * from '../../scripts/github-standin.js'
