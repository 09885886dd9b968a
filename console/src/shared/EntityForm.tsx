import {
  Alert,
  Autocomplete,
  Button,
  Group,
  PasswordInput,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core'
import { useMutation } from '@tanstack/react-query'
import { type FormEvent, type ReactNode, useState } from 'react'
import { fieldErrors, formLevelError } from './field-errors.js'

export interface Field {
  /** The body field the service names in a 422's `loc`. */
  name: string
  label: string
  type?: 'text' | 'email' | 'date' | 'select' | 'textarea' | 'password'
  options?: { value: string; label: string }[]
  required?: boolean
  description?: string
  /** Values to suggest while typing (any other may still be typed). */
  suggestions?: string[]
}

export type Values = Record<string, string>

/** Why the form cannot be sent yet (a file still uploading), shown beside the button, with its progress. */
export interface Waiting {
  text: string
  fraction?: number
}

/** Blank inputs are sent as null (cleared), for the fields the service accepts null in. */
export const orNull = (value: string | undefined) => (value?.trim() ? value.trim() : null)
/** Blank inputs are left out, for the fields the service does not accept null in. */
export const orOmit = (value: string | undefined) => (value?.trim() ? value.trim() : undefined)

function Input({ field, value, error, onChange }: { field: Field; value: string; error?: string; onChange: (v: string) => void }) {
  const common = { label: field.label, error, withAsterisk: field.required, description: field.description }
  switch (field.type) {
    case 'select':
      return (
        <Select
          {...common}
          data={field.options ?? []}
          clearable={!field.required}
          clearButtonProps={{ 'aria-label': `Clear ${field.label}` }}
          value={value || null}
          onChange={(v) => onChange(v ?? '')}
        />
      )
    case 'textarea':
      return <Textarea {...common} value={value} onChange={(e) => onChange(e.currentTarget.value)} autosize minRows={2} />
    case 'password':
      return <PasswordInput {...common} value={value} onChange={(e) => onChange(e.currentTarget.value)} />
    default:
      if (field.suggestions) return <Autocomplete {...common} data={field.suggestions} value={value} onChange={onChange} />
      return <TextInput {...common} type={field.type ?? 'text'} value={value} onChange={(e) => onChange(e.currentTarget.value)} />
  }
}

/**
 * A form of a few fields saved in one call. The service validates: each problem of its 422 shows at its
 * field in plain words, anything else above the button.
 */
export function EntityForm<R>({
  label,
  fields,
  initial,
  submitLabel,
  save,
  onSaved,
  children,
  childFields = [],
  waiting = null,
}: {
  label: string
  fields: Field[]
  initial: Values
  submitLabel: string
  save: (values: Values) => Promise<R>
  onSaved: (result: R) => void
  /** More of the form below the fields (a file to upload), given the problems of every field. */
  children?: (errors: Record<string, string>) => ReactNode
  /** The body fields `children` show problems for. */
  childFields?: string[]
  /** Set while the form must not be sent: the button is disabled and says why beside it. */
  waiting?: Waiting | null
}) {
  const [values, setValues] = useState<Values>(initial)
  const mutation = useMutation({ mutationFn: () => save(values), onSuccess: onSaved })
  const errors = fieldErrors(mutation.error)
  const general = formLevelError(mutation.error, [...fields.map((f) => f.name), ...childFields])
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!waiting) mutation.mutate()
  }
  return (
    <form onSubmit={submit} aria-label={label} noValidate>
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {fields.map((field) => (
            <Input
              key={field.name}
              field={field}
              value={values[field.name] ?? ''}
              error={errors[field.name]}
              onChange={(value) => setValues((v) => ({ ...v, [field.name]: value }))}
            />
          ))}
        </SimpleGrid>
        {children?.(errors)}
        {general && (
          <Alert color="red" role="alert">
            {general}
          </Alert>
        )}
        <Group wrap="nowrap" align="center">
          <Button type="submit" loading={mutation.isPending} disabled={waiting !== null} style={{ flexShrink: 0 }}>
            {submitLabel}
          </Button>
          {waiting && (
            <Stack gap={2} style={{ flex: 1, minWidth: 0 }} role="status">
              <Text size="sm">{waiting.text}</Text>
              {waiting.fraction !== undefined && <Progress value={waiting.fraction * 100} aria-label="Upload progress" animated />}
            </Stack>
          )}
        </Group>
      </Stack>
    </form>
  )
}
