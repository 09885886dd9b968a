import Type from 'typebox'

// cmi5's fetch URL (cmi5.routes.ts): its wire shapes.

export const FetchParams = Type.Object({ token: Type.String({ maxLength: 200 }) })

/** The fetch URL's answers (cmi5 §8.2): the token once, then cmi5's error body, both with HTTP 200. */
export const FetchAnswer = Type.Union(
  [Type.Object({ 'auth-token': Type.String() }), Type.Object({ 'error-code': Type.String(), 'error-text': Type.String() })],
  { examples: [{ 'auth-token': 'c2Vzc2lvbi4uLjpzZWNyZXQ=' }] },
)
