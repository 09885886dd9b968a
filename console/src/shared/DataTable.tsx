import { Table, Text } from '@mantine/core'
import type { ReactNode } from 'react'
import { ScrollRegion } from './ScrollRegion.js'

export interface Column<T> {
  header: string
  cell: (row: T) => ReactNode
}

/** A plain table of rows; says so when there are none. */
export function DataTable<T>({
  rows,
  columns,
  rowKey,
  caption,
}: {
  rows: T[]
  columns: Column<T>[]
  rowKey: (row: T) => string
  caption: string
}) {
  if (rows.length === 0) return <Text c="dimmed">No {caption.toLowerCase()}.</Text>
  return (
    <ScrollRegion label={caption}>
      <Table striped highlightOnHover>
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.header}>{c.header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((c) => (
                <Table.Td key={c.header}>{c.cell(row)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  )
}
