// react-admin's filter form (a react-hook-form form): its own chunk, loaded when a filter under
// "Add filter" is shown or holds a value.
export { FilterForm } from 'react-admin';
