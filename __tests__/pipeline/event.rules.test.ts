/**
 * A deployment's URL as the gate assesses it, one row per rule: https (plain
 * http for a loopback host only), a host, and no credential of any part in it
 * (a user name alone, a password alone, or both).
 */
import { describe, expect, it } from '@jest/globals'
import { deploymentUrl } from '../../src/pipeline/event.js'

describe('deploymentUrl', () => {
  it.each<[unknown, { url: string } | { error: string }]>([
    ['app-abc.vercel.app', { url: 'https://app-abc.vercel.app/' }],
    ['https://app-abc.vercel.app/x?y=1', { url: 'https://app-abc.vercel.app/x?y=1' }],
    ['http://127.0.0.1:3000/', { url: 'http://127.0.0.1:3000/' }],
    ['http://localhost:3000/', { url: 'http://localhost:3000/' }],
    ['https://user@app.example.test/', { error: 'the deployment URL of the event carries credentials' }],
    ['https://:secret@app.example.test/', { error: 'the deployment URL of the event carries credentials' }],
    ['https://user:secret@app.example.test/', { error: 'the deployment URL of the event carries credentials' }],
    ['user@app.example.test', { error: 'the deployment URL of the event carries credentials' }],
    ['http://user@127.0.0.1/', { error: 'the deployment URL of the event carries credentials' }],
    [
      'http://app.example.test/',
      { error: 'the deployment URL of the event is plain http: only https is assessed (plain http for a loopback host only)' }
    ],
    ['ftp://app.example.test/', { error: "the deployment URL of the event has scheme 'ftp:', not https" }],
    ['https://', { error: 'the deployment URL of the event is not a URL' }],
    ['', { error: 'the event carries no deployment URL' }],
    [null, { error: 'the event carries no deployment URL' }],
    [42, { error: 'the event carries no deployment URL' }]
  ])('%j: %j', (raw, expected) => {
    expect(deploymentUrl(raw)).toEqual(expected)
  })
})
