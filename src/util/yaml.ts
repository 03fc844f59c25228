/**
 * The yaml package, loaded only when there is a YAML file to read (it is
 * about 280 KB of the bundle, and most runs read none): parsers take the
 * module as a parameter, and the shell loads it with loadYaml().
 */
export type YamlModule = typeof import('yaml')

export async function loadYaml(): Promise<YamlModule> {
  return import('yaml')
}
